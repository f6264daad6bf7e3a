/** Plain share URLs of the networks the spec lists for the share wall (part 1 §2 Stream view). */
export function shareLinks(url: string, title: string): Array<{ name: string; href: string }> {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  return [
    { name: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { name: 'X (Twitter)', href: `https://twitter.com/intent/tweet?url=${u}&text=${t}` },
    { name: 'WhatsApp', href: `https://wa.me/?text=${t}%20${u}` },
    { name: 'Telegram', href: `https://t.me/share/url?url=${u}&text=${t}` },
    { name: 'Reddit', href: `https://www.reddit.com/submit?url=${u}&title=${t}` },
    { name: 'Skype', href: `https://web.skype.com/share?url=${u}&text=${t}` },
    { name: 'Email', href: `mailto:?subject=${t}&body=${u}` },
    { name: 'SMS', href: `sms:?&body=${t}%20${u}` },
    { name: 'Pinterest', href: `https://pinterest.com/pin/create/button/?url=${u}&description=${t}` },
    { name: 'Weibo', href: `https://service.weibo.com/share/share.php?url=${u}&title=${t}` },
  ];
}
