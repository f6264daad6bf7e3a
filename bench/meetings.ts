/**
 * Video calls with the built-in conference (decision 0019), as people meet them: the real server in its
 * own process (fresh embedded database, demo accounts), the built web app, Debian's chromium with fake
 * camera and microphone, one browser context per person.
 *
 * 1. Join → first remote video frame: the host waits in the room; a paid invitee opens the room page
 *    MEETINGS_JOINS times (default 20), each a fresh navigation. Measured in the invitee's page, from its
 *    navigation start to the first remote <video> with a decoded frame whose time moves: the app's load,
 *    join-meeting, the WebSocket, PARTICIPANTS, the offer/answer and ICE through the gateway, DTLS, the
 *    first decoded frame. Goal: ≤ 2 s (median and worst) on loopback.
 *    Reference, side by side in the same browser: raw WebRTC between two pages of the same origin, the
 *    receiving page freshly navigated each time, the offer and answer (all candidates gathered) passed
 *    through this process, without the app. Reported as ratio = ours / raw.
 * 2. Server CPU per participant in a 4-person room (host + 3 paid invitees, a full mesh): the server
 *    process's CPU seconds (/proc) over MEETINGS_ROOM_SECONDS (default 30) with everyone in the room,
 *    less the same window with the room empty, divided by 4. The media goes browser to browser; the
 *    server carries signalling, presence and the socket heartbeats only.
 *
 * Measured 2026-11-26 (2 cores shared by the server, the bench and five chromium contexts): join → first
 * remote frame median 1,657 ms, worst 6,078 ms; raw WebRTC median 555 ms: 5 of 20 quick rejoins wedged
 * (both connections stable, ICE never started) until the watchdog replaced the connection. The cause:
 * both sides offered on the same PARTICIPANTS frame; the polite invitee rolled its offer back, and
 * chromium sometimes gathers no ICE candidate at all for the answer that follows a rollback made while
 * the offer's gathering was starting (reproduced with two bare RTCPeerConnections in one page, no server).
 * Since then the impolite side alone offers a new connection.
 * Measured again on a machine whose load average stood at 20–30 on 2 cores (other jobs): raw WebRTC
 * median 3,213 ms, worst 4,897 ms (6× the quiet figure); ours median 9,144 ms, best 5,463 ms, worst
 * 15,159 ms; ratio 2.85 (median), 3.10 (worst); no join stalled. A traced run (MEETINGS_TRACE=1) of
 * 20 joins under the same load: one offer per join, no connection replaced; the code before, traced
 * there too: two crossing offers in every join, 3 of 20 wedged, 60 candidates of rolled-back offers
 * thrown away. Four people for 30 s: the server
 * used 2.17 CPU seconds (0.60 with the room empty): at most 1.8 % of a core per participant, inflated
 * by the load (0.14 % when measured quiet). The ≤ 2 s goal is to be checked again on a quiet machine.
 *
 * Run after `npm run build:web`: `npx tsx bench/meetings.ts`. Env: MEETINGS_JOINS, MEETINGS_ROOM_SECONDS,
 * MEETINGS_TRACE=1 (prints the signalling timeline, every page's, of each join over the goal and of a
 * four-person room in which someone does not see everyone).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { percentile, round, sleep, writeResult } from './lib';
import { paidMeeting, personPage as signedInPage, startServerAndBrowser } from './browser-run';
import { timeline, traceOf, traceSignals } from './signal-trace';

const JOINS = Number(process.env.MEETINGS_JOINS ?? 20);
const ROOM_SECONDS = Number(process.env.MEETINGS_ROOM_SECONDS ?? 30);
/** Prints the signalling timeline (host and invitee) of every join slower than the goal. */
const TRACE = process.env.MEETINGS_TRACE === '1';
const GOAL_MS = 2000;
const JOIN_TIMEOUT_MS = 15_000;
const HOST = 'broadcaster1';
const INVITEES = ['viewer1', 'viewer2', 'viewer3'];

/** A signed-in page of `username`'s, its signalling traced with MEETINGS_TRACE=1. */
const personPage = (browser: Browser, base: string, username: string): Promise<Page> =>
  signedInPage(browser, base, username, TRACE ? traceSignals : undefined);

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return ((fields[11] ?? 0) + (fields[12] ?? 0)) / 100;
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { runs: sorted.length, medianMs: round(percentile(sorted, 50)), worstMs: round(sorted.at(-1) ?? 0), bestMs: round(sorted[0] ?? 0) };
}

/** Milliseconds from the page's navigation start until `count` remote videos show moving frames. */
async function untilRemoteFrames(page: Page, count = 1, timeout = 30_000): Promise<number> {
  const handle = await page.waitForFunction((wanted) => {
    const state = ((window as unknown as { __frames?: Map<HTMLVideoElement, number> }).__frames ??= new Map());
    let moving = 0;
    for (const video of document.querySelectorAll<HTMLVideoElement>('video[data-remote-video]')) {
      if (video.videoWidth === 0) continue;
      const before = state.get(video);
      state.set(video, video.currentTime);
      if (before !== undefined && video.currentTime > before) moving += 1;
      else if (before === undefined && video.currentTime > 0) moving += 1;
    }
    return moving >= wanted ? performance.now() : 0;
  }, count, { polling: 'raf', timeout });
  return (await handle.jsonValue()) as number;
}

/** The reference: two plain pages of the same origin, RTCPeerConnection only, signalled through this process. */
async function rawWebrtcJoin(sender: Page, receiver: Page, origin: string): Promise<number> {
  await receiver.goto(`${origin}/api/csrf-token`);
  const offer = await receiver.evaluate(async () => {
    const w = window as unknown as { pc: RTCPeerConnection; firstFrame: Promise<number> };
    const pc = new RTCPeerConnection();
    w.pc = pc;
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    w.firstFrame = new Promise<number>((resolve) => {
      pc.ontrack = (event) => {
        if (event.track.kind !== 'video') return;
        const video = document.createElement('video');
        video.muted = true;
        video.autoplay = true;
        video.srcObject = new MediaStream([event.track]);
        document.body.append(video);
        video.requestVideoFrameCallback(() => resolve(performance.now()));
      };
    });
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => (pc.iceGatheringState === 'complete' ? resolve() : pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve())));
    return pc.localDescription!.toJSON();
  });
  const answer = await sender.evaluate(async (remote) => {
    const w = window as unknown as { stream: MediaStream; pc?: RTCPeerConnection };
    w.pc?.close();
    const pc = new RTCPeerConnection();
    w.pc = pc;
    for (const track of w.stream.getTracks()) pc.addTrack(track, w.stream);
    await pc.setRemoteDescription(remote);
    await pc.setLocalDescription(await pc.createAnswer());
    await new Promise<void>((resolve) => (pc.iceGatheringState === 'complete' ? resolve() : pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve())));
    return pc.localDescription!.toJSON();
  }, offer);
  return receiver.evaluate(async (remote) => {
    const w = window as unknown as { pc: RTCPeerConnection; firstFrame: Promise<number> };
    await w.pc.setRemoteDescription(remote);
    return w.firstFrame;
  }, answer);
}

async function main() {
  const [server, browser] = await startServerAndBrowser();
  try {
    const base = server.url;
    const { hostId, room, invitees } = await paidMeeting(base, HOST, INVITEES, 'Benchmark call');
    if (TRACE) console.log(`[meetings] host ${hostId}, invitees ${invitees.map((i) => i.userId).join(', ')}`);

    const hostPage = await personPage(browser, base, HOST);
    await hostPage.goto(room);
    await hostPage.getByRole('toolbar', { name: 'Call controls', includeHidden: true }).waitFor({ state: 'attached', timeout: 30_000 });
    const [first, ...others] = await Promise.all(INVITEES.map((name) => personPage(browser, base, name)));

    // 1. Joins: ours, then the reference, alternating so both see the same machine.
    const ours: number[] = [];
    let stalled = 0;
    const raw: number[] = [];
    const sender = await personPage(browser, base, 'viewer4');
    await sender.evaluate(async () => {
      (window as unknown as { stream: MediaStream }).stream = await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
    });
    const receiver = await (await browser.newContext()).newPage();
    for (let i = 0; i < JOINS; i += 1) {
      const since = Date.now();
      await first!.goto(room);
      const joined = await untilRemoteFrames(first!, 1, JOIN_TIMEOUT_MS).catch(() => null);
      if (joined === null) stalled += 1;
      else ours.push(joined);
      if (TRACE && (joined === null || joined > GOAL_MS)) {
        console.log(timeline(since, { host: await traceOf(hostPage, since), invitee: await traceOf(first!, since) }));
      }
      await first!.goto('about:blank');
      raw.push(await rawWebrtcJoin(sender, receiver, base));
      await sleep(300);
      console.log(`[meetings] join ${i + 1}/${JOINS}: ours ${joined === null ? `no frame in ${JOIN_TIMEOUT_MS} ms` : `${round(joined)} ms`}, raw WebRTC ${round(raw.at(-1)!)} ms`);
    }
    await receiver.context().close();
    await sender.context().close();

    // 2. CPU: an empty room (the host only), then four people in a full mesh, each window as long.
    const pid = server.child.pid!;
    await hostPage.goto('about:blank');
    await sleep(2000);
    const idleStart = cpuSeconds(pid);
    await sleep(ROOM_SECONDS * 1000);
    const idleCpu = cpuSeconds(pid) - idleStart;
    const people = [hostPage, first!, ...others];
    const roomOpened = Date.now();
    for (const page of people) await page.goto(room);
    const everyone = await Promise.all(people.map((page) => untilRemoteFrames(page, people.length - 1).then(() => true, () => false)));
    if (TRACE && !everyone.every(Boolean)) {
      const traces = await Promise.all(people.map((page) => traceOf(page, roomOpened)));
      console.log(timeline(roomOpened, Object.fromEntries(traces.map((events, i) => [[HOST, ...INVITEES][i]!, events]))));
    }
    const roomStart = cpuSeconds(pid);
    await sleep(ROOM_SECONDS * 1000);
    const roomCpu = cpuSeconds(pid) - roomStart;
    const stillMoving = await Promise.all(people.map((page) => untilRemoteFrames(page, people.length - 1).then(() => true, () => false)));

    const join = summary(ours);
    const reference = summary(raw);
    const result = {
      joins: JOINS,
      /** Joins that showed no remote frame within JOIN_TIMEOUT_MS (left out of the figures). */
      stalledJoins: stalled,
      joinToFirstRemoteFrame: join,
      rawWebrtc: reference,
      ratio: { median: round(join.medianMs / reference.medianMs, 2), worst: round(join.worstMs / reference.worstMs, 2) },
      goalMs: GOAL_MS,
      goalMet: stalled === 0 && join.medianMs <= GOAL_MS && join.worstMs <= GOAL_MS,
      room: {
        participants: people.length,
        seconds: ROOM_SECONDS,
        everyoneSeesEveryone: stillMoving.every(Boolean),
        serverCpuSecondsIdle: round(idleCpu, 2),
        serverCpuSecondsRoom: round(roomCpu, 2),
        /** An upper bound: the room's window counts the server's idle work too. */
        serverCpuPercentPerParticipant: round((roomCpu / ROOM_SECONDS / people.length) * 100, 3),
      },
    };
    writeResult('meetings', result);
  } finally {
    await browser.close();
    await server.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
