/**
 * The programs the test command needs besides Node: a Chromium for the browser journeys (CHROMIUM_PATH,
 * else Debian's headless shell, /usr/bin/chromium-headless-shell) and Debian's ffmpeg for the ingest (the npm-shipped one is the
 * fallback where it cannot be installed). When missing they are installed with apt where this process
 * may (root); otherwise the test command says the one command to run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/**
 * Chromium's engine without the browser's window stack (Debian's chromium-headless-shell, what Playwright
 * itself runs headless): the same pages, media and WebRTC, for about three quarters of the CPU.
 */
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export interface Tool {
  path: string;
  /** The Debian package that provides it. */
  debianPackage: string;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = () => spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;

function aptInstall(pkg: string): boolean {
  console.log(`Installing ${pkg} with apt-get (it is missing)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env }).status !== 0) return false;
  return spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], { stdio: 'inherit', env }).status === 0;
}

/** The tool's path once it is there; null (with the command to run printed) when it cannot be had here. */
export function ensureTool(tool: Tool, given: string | undefined = undefined): string | null {
  if (given) {
    if (existsSync(given)) return given;
    console.error(`${given} does not exist (set by the environment).`);
    return null;
  }
  if (existsSync(tool.path)) return tool.path;
  if (isRoot() && hasApt() && aptInstall(tool.debianPackage) && existsSync(tool.path)) return tool.path;
  console.error(`${tool.path} is missing. Install it with:\n  sudo apt-get install -y ${tool.debianPackage}`);
  return null;
}

export const ensureChromium = () => ensureTool({ path: DEBIAN_HEADLESS_SHELL, debianPackage: 'chromium-headless-shell' }, process.env.CHROMIUM_PATH);

/** The whole browser, for the journeys that need what the headless shell lacks (notifications). */
export const ensureFullChromium = () => ensureTool({ path: DEBIAN_CHROMIUM, debianPackage: 'chromium' }, process.env.CHROMIUM_FULL_PATH);

/** Debian's ffmpeg, installed when missing and possible; null leaves the media code on the npm-shipped one. */
export const ensureFfmpeg = () => ensureTool({ path: '/usr/bin/ffmpeg', debianPackage: 'ffmpeg' }, process.env.FFMPEG_PATH);
