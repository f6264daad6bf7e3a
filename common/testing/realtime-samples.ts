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
  GOAL: {
    type: 'GOAL',
    data: {
      stream_id: 42,
      goal: { goal_id: 8, position: 2, amount: 50, raised: 5, description: 'Q&A', state: 'active', reached_time: null },
      reached: [{ goal_id: 7, position: 1, amount: 30, raised: 30, description: 'New song', state: 'reached', reached_time: '2026-11-30T10:00:00.000Z' }],
    },
  },
  'STREAM-END': { type: 'STREAM-END' },
  'STREAM-LIVE': { type: 'STREAM-LIVE', data: { stream_id: 12 } },
  'STREAM-STOPPED': { type: 'STREAM-STOPPED', data: { stream_id: 12, reason: 'disk-full' } },
  'STREAM-OPTIONS': { type: 'STREAM-OPTIONS', options: { chat_enabled: false } },
  BLOCKED: sampleBlocked(1_000_001),
  'LINE-REMOVED': { type: 'LINE-REMOVED', data: { stream_id: 12, timetoken: '41' } },
  HELD: { type: 'HELD', data: { stream_id: 12, priority: false, line: sampleComment('see www.example.com', '42') } },
  'HELD-RESOLVED': { type: 'HELD-RESOLVED', data: { stream_id: 12, timetoken: '42', approved: true } },
  SHOW: {
    type: 'SHOW',
    data: {
      stream_id: 12,
      show: { show_id: 3, stream_id: 12, kind: 'private', state: 'live', price_per_minute: 60, spy_price: 20, min_minutes: 5, tickets: 0, min_tickets: 1, started_time: '2026-11-30T12:00:00.000Z' },
    },
  },
  'SHOW-SEAT': {
    type: 'SHOW-SEAT',
    data: {
      seat: {
        show_id: 3, stream_id: 12, kind: 'private', role: 'buyer', state: 'ended', price_per_minute: 60, minutes_billed: 2, coins_paid: 120,
        paid_until: '2026-11-30T12:02:00.000Z', end_reason: 'balance',
      },
    },
  },
  'SHOW-REQUESTS': { type: 'SHOW-REQUESTS', data: { stream_id: 12 } },
  CONNECTED: { type: 'CONNECTED', sender: sampleSender(), data: { stream_id: 7 } },
  DISCONNECTED: { type: 'DISCONNECTED', sender: sampleSender(), data: { stream_id: 7 } },
  VIEWERS: { type: 'VIEWERS', viewers: 12 },
  SIGNAL: { type: 'SIGNAL', data: { meeting_id: 3, from: 1_000_002, signal: { candidate: null } } },
  PARTICIPANTS: { type: 'PARTICIPANTS', data: { meeting_id: 3, host_present: true, participants: [{ user_id: 1_000_002, name: 'Bo', avatar: null, is_host: true, paid: true }] } },
  'MEETING-END': { type: 'MEETING-END', data: { meeting_id: 3 } },
  KICKED: { type: 'KICKED', data: { meeting_id: 3 } },
  'lovense-access': {
    type: 'lovense-access',
    text: 'The viewer has declined the access request.',
    data: {
      event: 'DECLINE_REQUEST',
      record: {
        id: 1, access: 'DECLINE', broadcaster_state: 'NONE', broadcaster_id: 1_000_002, viewer_state: 'NONE', viewer_id: 1_000_001,
        viewer: { id: 1_000_001, sname: 'Ann', avatar: null }, data: [{ id: 't1', name: 'lush', nickname: '', online: true }], commands: ['Vibrate'],
        tip_amount: 50, tip_currency: 'CON', is_tip_paid: 'N', requested_tip: 0, paid_total: 0, qr_data: null, stream_id: 3, room: 'meeting',
        receiver_id: 1_000_001, sender_id: 1_000_002, service: 'limelight', entry_date: chatTime, updated_date: chatTime, app_connection_status: 'connected',
      },
    },
  },
  'lovense-app-connection': {
    type: 'lovense-app-connection', receiver: 1_000_001, sender: 1_000_002, payload: { stream_id: 3, room: 'meeting', status: 'connected' }, text: 'Lovense app connected.',
  },
  'lovense-add-device-request': {
    type: 'lovense-add-device-request', receiver: 1_000_002, sender: 1_000_001, payload: { stream_id: 3, room: 'meeting' },
    text: 'Please add compatible Lovense devices to grant viewer access.',
  },
  'lovense-viewer-end-call': {
    type: 'lovense-viewer-end-call', receiver: 1_000_002, sender: 1_000_001, payload: { stream_id: 3, room: 'meeting' },
    text: 'The viewer has left the call. Device access has been revoked.',
  },
  'lovense-command': {
    type: 'lovense-command', receiver: 1_000_002, sender: 1_000_001, payload: { stream_id: 3, room: 'meeting', command: 'Vibrate', level: 12, seq: 1, at: chatTime },
  },
  NOTIFICATION: {
    type: 'NOTIFICATION',
    data: {
      unread: 3,
      notification: {
        id: 41, kind: 'stream_live', text: 'Bo is live: Evening set', link: '/streams/stream-view?id=7',
        actor: { id: 1_000_002, username: 'bo', fullname: 'Bo', avatar: null }, read: false, created_at: chatTime,
      },
    },
  },
  BALANCE: { type: 'BALANCE', balance: { CON: 1_250, IMP: 0, USD: 0, CAD: 0 } },
  DM: { type: 'DM', data: { message: { id: 31, sender_id: 1000001, recipient_id: 1000002, text: 'See you tonight', time: '2026-11-30T10:00:00.000Z', media: null, price: 0, unlocked: false }, unread: 2 } },
  'DM-READ': { type: 'DM-READ', data: { reader_id: 1000002, partner_id: 1000001, last_read_id: 31 } },
  'DM-TYPING': { type: 'DM-TYPING', data: { user_id: 1000001 } },
};

export const SAMPLE_MESSAGES: RealtimeMessage[] = Object.values(SAMPLE_OF_EACH_TYPE);
