import { describe, expect, it } from 'vitest';
import { createPublishBacklog } from './publish-backlog';

describe('publish backlog', () => {
  it('keeps messages in order and drops the oldest beyond its bound in bytes, counting them', () => {
    const backlog = createPublishBacklog(10);
    for (const payload of ['aaaa', 'bbbb', 'cccc']) backlog.add({ channel: 'c', payload });
    expect(backlog.size()).toBe(2);
    expect(backlog.first()?.payload).toBe('bbbb');
    expect(backlog.takeDropped()).toBe(1);
    expect(backlog.takeDropped()).toBe(0);
    backlog.done();
    expect(backlog.first()?.payload).toBe('cccc');
    // Freed room is room again: two more fit beside the one left.
    backlog.add({ channel: 'c', payload: 'ddd' });
    backlog.add({ channel: 'c', payload: 'eee' });
    expect(backlog.size()).toBe(3);
    expect(backlog.takeDropped()).toBe(0);
  });

});
