/**
 * What a moderator does to a chat line or a viewer (decision 0083); each outcome reaches the pages on the
 * channels (LINE-REMOVED, COMMENT, HELD-RESOLVED). Loaded with the menus that use it.
 */
import { useMutation } from '@tanstack/react-query';
import { chat as chatCalls } from '../../../common/api/calls';
import type { CallInput } from '../../../common/api/define';
import { call, type ApiError } from '../../api/client';

/** What a moderator does to a line or a viewer; each answer is seen on the channels (LINE-REMOVED, COMMENT, HELD-RESOLVED). */
export const useDeleteChatLine = () => useMutation<unknown, ApiError, CallInput<typeof chatCalls.deleteChatLine>>({ mutationFn: (input) => call(chatCalls.deleteChatLine, input) });
export const useApproveChatLine = () => useMutation<unknown, ApiError, CallInput<typeof chatCalls.approveChatLine>>({ mutationFn: (input) => call(chatCalls.approveChatLine, input) });
export const useTimeOutChatter = () => useMutation<unknown, ApiError, CallInput<typeof chatCalls.timeOutChatter>>({ mutationFn: (input) => call(chatCalls.timeOutChatter, input) });
