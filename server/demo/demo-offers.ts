/**
 * Advertiser offers of the demo: a banner and a chat offer of the administrator's, drawn from SVG and
 * published through the ads service as an upload would be. The demo replays carry them (attached while
 * each is live), so a fresh demo shows banner and chat ads on its replays.
 */
import sharp from 'sharp';
import type { ModuleServices } from '../platform/module';

interface DemoOffer {
  name: string;
  shortDescription: string;
  type: 'BANNER' | 'CHAT';
  size: [width: number, height: number];
  colours: [from: string, to: string];
  headline: string;
}

export const DEMO_OFFERS: readonly DemoOffer[] = [
  { name: 'Studio lights', shortDescription: 'Ring lights for creators: 20% off this week', type: 'BANNER', size: [728, 90], colours: ['#b8f02a', '#2ec5ff'], headline: 'Ring lights for creators · 20% off' },
  { name: 'Creator microphones', shortDescription: 'Sound like a studio: creator microphones', type: 'CHAT', size: [240, 240], colours: ['#ff4f8b', '#6a3093'], headline: 'Mics' },
];

const escape = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

function picture({ size: [width, height], colours: [from, to], headline }: DemoOffer): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/>
    <text x="${width / 2}" y="${height / 2 + 14}" text-anchor="middle" font-family="sans-serif" font-size="${Math.round(height / 3.2)}" font-weight="bold" fill="#111">${escape(headline)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The demo offers, the administrator's; answers their ids. */
export async function seedDemoOffers(services: Pick<ModuleServices, 'accounts' | 'ads'>, adminId: number): Promise<number[]> {
  const admin = await services.accounts.loadPrincipal(adminId);
  if (!admin) return [];
  const ids: number[] = [];
  for (const offer of DEMO_OFFERS) {
    ids.push(await services.ads.offers.createFromPicture(admin, {
      name: offer.name, short_description: offer.shortDescription, type: offer.type, rating: 'G', ad_link: 'https://example.com/',
      // Unfunded, so free: shown on the demo streams, paying nobody (decision 0037).
      commission: { impression: 0, click: 0, complete: 0 },
    }, await picture(offer)));
  }
  return ids;
}
