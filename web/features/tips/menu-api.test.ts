import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { MenuRequest } from '../../../common/api/tips';
import { sampleTip } from '../../../common/testing/realtime-samples';
import { addRequestOfTip, tipMenuKeys } from './menu-api';

const menuTip = (timetoken: string, label = 'Sing a song') => {
  const tip = sampleTip(50, timetoken);
  return { ...tip, data: { ...tip.data, menu_item: label } };
};

describe("a TIP frame on the owner's live panel", () => {
  const key = tipMenuKeys.requests(42);

  it('adds the action it bought to the queue, once', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<MenuRequest[]>(key, []);
    addRequestOfTip(queryClient, 42, menuTip('7'));
    addRequestOfTip(queryClient, 42, menuTip('7'));
    expect(queryClient.getQueryData<MenuRequest[]>(key)?.map((r) => [r.request_id, r.label, r.done])).toEqual([[7, 'Sing a song', false]]);
  });

  it('leaves the queue alone for a tip that bought nothing', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<MenuRequest[]>(key, []);
    addRequestOfTip(queryClient, 42, sampleTip(50, '8'));
    expect(queryClient.getQueryData(key)).toEqual([]);
  });

  it('before the queue has answered, asks for it again rather than start one from the frame', () => {
    const queryClient = new QueryClient();
    // The queue's first read, still on its way.
    queryClient.getQueryCache().build(queryClient, { queryKey: key });
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(false);
    addRequestOfTip(queryClient, 42, menuTip('9'));
    expect(queryClient.getQueryData(key)).toBeUndefined();
    expect(queryClient.getQueryState(key)?.isInvalidated).toBe(true);
  });
});
