/*
 * The edge's check of a playback address (decision 0066), run by nginx's njs before it serves a playlist
 * or a segment from its cache: the token in the address must be unexpired and signed, under the
 * installation's playback secret (PLAYBACK_SECRET in nginx's environment), for this stream and for a
 * client this request carries: the signed-in session (its cookie, hashed as the server keeps it) or the
 * guest's browser cookie. It mirrors server/platform/media/playback-tokens.ts and
 * server/modules/streams/viewer.ts (playbackClientOf); the origin checks everything again on a miss.
 */
import crypto from 'crypto';

var TOKEN = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{1,120})\.([A-Za-z0-9_-]{43})$/;
var SESSION_COOKIE = 'll_session';
var BROWSER_COOKIE = 'll_csrf';

function cookie(r, name) {
  var header = r.headersIn.Cookie;
  if (!header) return null;
  var parts = header.split(';');
  for (var i = 0; i < parts.length; i++) {
    var part = parts[i].trim();
    var eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === name) return part.slice(eq + 1);
  }
  return null;
}

/** The clients this request may be: its session, else its browser (or none), as the origin decides. */
function clientsOf(r) {
  var clients = [];
  var session = cookie(r, SESSION_COOKIE);
  if (session) clients.push('session:' + crypto.createHash('sha256').update(session).digest('hex'));
  var browser = cookie(r, BROWSER_COOKIE);
  clients.push(browser && browser.length <= 100 ? 'browser:' + browser : 'none');
  return clients;
}

function sameText(a, b) {
  if (a.length !== b.length) return false;
  var diff = 0;
  for (var i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** "1" when the address's token opens this stream for this request's client now, else "0". */
function verify(r) {
  var secret = process.env.PLAYBACK_SECRET;
  var streamId = r.variables.media_stream;
  var match = TOKEN.exec(r.variables.media_token || '');
  if (!secret || !streamId || !match) return '0';
  var expiry = match[1];
  if (parseInt(expiry, 36) * 1000 < Date.now()) return '0';
  var viewer = Buffer.from(match[2], 'base64url').toString();
  var clients = clientsOf(r);
  for (var i = 0; i < clients.length; i++) {
    var client = Buffer.from(clients[i]).toString('base64url');
    var mac = crypto.createHmac('sha256', secret).update(streamId + '.' + expiry + '.' + client + '.' + viewer).digest('base64url');
    if (sameText(mac, match[3])) return '1';
  }
  return '0';
}

export default { verify };
