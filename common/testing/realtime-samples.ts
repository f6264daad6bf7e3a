/** Well-formed realtime messages for tests: one of each type, and builders for chat lines. */
import type { RealtimeMessage, RealtimeMessageOf, RealtimeSender, RealtimeType } from '../realtime';

const chatTime = '2026-11-23T12:00:00.000Z';

export const sampleSender = (over: Partial<RealtimeSender> = {}): RealtimeSender => ({
  name: 'Ann', user_id: 1_000_001, avatar: null, is_priority: false, is_owner: false, ...over,
});

export const sampleComment = (text: string, timetoken = '1'): RealtimeMessageOf<'COMMENT'> => ({
  type: 'COMMENT', text, sender: sampleSender(), chatTime, timetoken,
});

export const sampleTip = (coins: number, timetoken = '1'): RealtimeMessageOf<'TIP'> => ({
  type: 'TIP',
  text: 'Ann tipped the streamer.',
  data: { recipient_amount: coins, recipient_currency: 'CON' },
  sender: sampleSender(),
  chatTime,
  timetoken,
});

export const sampleBlocked = (userId: number): RealtimeMessageOf<'BLOCKED'> => ({ type: 'BLOCKED', text: String(userId), data: { user_id: userId } });

/** Every type once: a type added to the contract does not compile here until it has a sample. */
export const SAMPLE_OF_EACH_TYPE: { [T in RealtimeType]: RealtimeMessageOf<T> } = {
  COMMENT: sampleComment('hi'),
  LIKE: { type: 'LIKE', likes: 1, sender: sampleSender() },
  TIP: sampleTip(100),
  'TIP-ENFORCE': { type: 'TIP-ENFORCE', data: { tip_viewer_min_amount: 20 } },
  'STREAM-END': { type: 'STREAM-END' },
  'STREAM-OPTIONS': { type: 'STREAM-OPTIONS', options: { chat_enabled: false } },
  BLOCKED: sampleBlocked(1_000_001),
  CONNECTED: { type: 'CONNECTED', sender: sampleSender(), data: { stream_id: 7 } },
  DISCONNECTED: { type: 'DISCONNECTED', sender: sampleSender(), data: { stream_id: 7 } },
  VIEWERS: { type: 'VIEWERS', viewers: 12 },
  SIGNAL: { type: 'SIGNAL', data: { meeting_id: 3, from: 1_000_002, signal: { candidate: null } } },
  PARTICIPANTS: { type: 'PARTICIPANTS', data: { meeting_id: 3, host_present: true, participants: [{ user_id: 1_000_002, name: 'Bo', avatar: null, is_host: true, paid: true }] } },
  'MEETING-END': { type: 'MEETING-END', data: { meeting_id: 3 } },
  KICKED: { type: 'KICKED', data: { meeting_id: 3 } },
};

export const SAMPLE_MESSAGES: RealtimeMessage[] = Object.values(SAMPLE_OF_EACH_TYPE);
