/**
 * The creator's vault, server state (decision 0088): its media page by page, and files sent through the
 * resumable uploads and kept in it (each a medium of its own; a video is transcoded first).
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { vault as vaultCalls } from '../../../common/api/calls';
import type { VaultItem } from '../../../common/api/vault';
import { call } from '../../api/client';
import type { ApiError } from '../../api/client';
import { nextPageOffset } from '../../ui/paging';
import { forgetUploads } from '../../uploads/resumable-upload';

export const vaultKeys = { all: ['vault'] as const };
const PAGE_SIZE = 30;

interface VaultPage {
  items: VaultItem[];
  total: number;
}


/** The vault, the newest first; read again every few seconds while a video in it is being processed. */
export function useVault(enabled = true) {
  return useInfiniteQuery({
    queryKey: vaultKeys.all,
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam }): Promise<VaultPage> => call(vaultCalls.vaultList, { offset: pageParam, limit: PAGE_SIZE }),
    getNextPageParam: (last, pages) => nextPageOffset(last, pages, (page) => page.items),
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.items.some((item) => item.state === 'processing')) ? 3_000 : false),
  });
}

/** Keeps finished uploads (`files`, sent as `uploadIds`) in the vault; their resume records go once they are kept. */
export function useKeepInVault() {
  const queryClient = useQueryClient();
  return useMutation<VaultItem[], ApiError, { files: readonly File[]; uploadIds: string[] }>({
    mutationFn: async ({ uploadIds }) => (await call(vaultCalls.vaultAdd, { upload_ids: uploadIds })).items,
    onSuccess: (_, { files }) => {
      void forgetUploads(files);
      void queryClient.invalidateQueries({ queryKey: vaultKeys.all });
    },
  });
}
