/**
 * Image posts of the demo broadcasters, so the profiles' Photos tabs and the channels' image tiles are
 * not empty on a fresh demo (made once, with the accounts): pictures drawn from SVG, published through
 * the posts service as an upload would be — one of them paid, one for followers.
 */
import sharp from 'sharp';
import type { ModuleServices } from '../platform/module';

interface DemoPost {
  username: string;
  title: string;
  description: string;
  audience: 'public' | 'followers';
  tip: number;
  /** One picture per pair of colours: a gradient with a sun and the picture's caption. */
  pictures: Array<[from: string, to: string, caption: string]>;
}

export const DEMO_POSTS: readonly DemoPost[] = [
  {
    username: 'broadcaster1', title: 'Sunset over the bay', description: 'Three frames from last night.', audience: 'public', tip: 0,
    pictures: [['#ff7e5f', '#feb47b', 'Golden hour'], ['#6a3093', '#a044ff', 'Dusk'], ['#0f2027', '#2c5364', 'Night falls']],
  },
  {
    username: 'broadcaster2', title: 'Studio set, full resolution', description: 'The complete set for supporters.', audience: 'public', tip: 50,
    pictures: [['#11998e', '#38ef7d', 'Take one'], ['#fc4a1a', '#f7b733', 'Take two']],
  },
  {
    username: 'broadcaster3', title: 'Behind the scenes', description: 'For the people who follow along.', audience: 'followers', tip: 0,
    pictures: [['#1e3c72', '#2a5298', 'Backstage']],
  },
];

const escape = (text: string) => text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

async function picture(from: string, to: string, caption: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="960">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="1280" height="960" fill="url(#g)"/>
    <circle cx="900" cy="360" r="140" fill="#fff6d5" opacity="0.85"/>
    <path d="M0 760 Q 320 640 640 740 T 1280 700 V 960 H 0 Z" fill="#000" opacity="0.35"/>
    <text x="80" y="880" font-family="sans-serif" font-size="72" fill="#fff">${escape(caption)}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export async function seedDemoPosts(services: Pick<ModuleServices, 'posts'>, broadcasters: Map<string, number>): Promise<number> {
  let made = 0;
  for (const post of DEMO_POSTS) {
    const userId = broadcasters.get(post.username);
    if (userId === undefined) continue;
    const pictures = await Promise.all(post.pictures.map(([from, to, caption]) => picture(from, to, caption)));
    await services.posts.publishImages(userId, { title: post.title, description: post.description, audience: post.audience, tip: post.tip, content_rating: 'G', comments_allowed: true }, pictures);
    made += 1;
  }
  return made;
}
