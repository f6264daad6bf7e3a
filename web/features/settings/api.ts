/** Settings server state: preferences, account fields, avatar, and the signed e-mail preference link. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { accounts, settings } from '../../../common/api/calls';
import type { CallInput } from '../../../common/api';
import type { SessionUser } from '../../../common/api/accounts';
import type { Preferences } from '../../../common/api/settings';
import { call, upload } from '../../api/client';
import { accountKeys, setSessionUser, signedOut } from '../accounts';
import { socialKeys } from '../social';
import { systemKeys } from '../system';

export const settingsKeys = {
  all: ['settings'] as const,
  preferences: (userId: number) => [...settingsKeys.all, 'preferences', userId] as const,
  emailLink: (id: number, token: string) => [...settingsKeys.all, 'email-link', id, token] as const,
};

type PreferenceParams = CallInput<typeof settings.updateUserPreferences>['params'];

export function usePreferences(userId: number) {
  return useQuery({
    queryKey: settingsKeys.preferences(userId),
    queryFn: async () => (await call(settings.getUserPreferences, { id: userId, sections: 'all' })).preferences as Preferences,
  });
}

/** What the app shows from the user's settings elsewhere: the side bar channels and their profile. */
function refreshAfterSettings(queryClient: QueryClient, userId: number) {
  void queryClient.invalidateQueries({ queryKey: [...systemKeys.all, 'base-group'] });
  void queryClient.invalidateQueries({ queryKey: socialKeys.profile(userId) });
}

/** Changes some preferences; the switches move at once and go back if the server refuses. */
export function useUpdatePreferences(userId: number) {
  const queryClient = useQueryClient();
  const key = settingsKeys.preferences(userId);
  return useMutation({
    mutationFn: (params: PreferenceParams) => call(settings.updateUserPreferences, { id: userId, params }),
    onMutate: async (params) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<Preferences>(key);
      if (before) {
        const { stream_show_18plus, ...notifications } = params;
        queryClient.setQueryData<Preferences>(key, {
          filters: stream_show_18plus === undefined ? before.filters : { stream_show_18plus: Boolean(stream_show_18plus) },
          notifications: { ...before.notifications, ...(notifications as Partial<Preferences['notifications']>) },
        });
      }
      return { before };
    },
    onError: (_error, _params, context) => queryClient.setQueryData(key, context?.before),
    onSuccess: (out, params) => {
      queryClient.setQueryData(key, out.preferences);
      if (params.stream_show_18plus !== undefined) refreshAfterSettings(queryClient, userId);
    },
  });
}

export function useUpdateUserInfo(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (params: CallInput<typeof accounts.updateUserInfo>['params']) => call(accounts.updateUserInfo, { id: userId, params }),
    onSuccess: (out, params) => {
      // Declining the terms ends in a logout; showing the terms modal first would only flash.
      if (params.terms_accepted !== false) setSessionUser(queryClient, out.user);
      refreshAfterSettings(queryClient, userId);
    },
  });
}

export function useUploadAvatar(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return upload(settings.uploadAvatar, form);
    },
    onSuccess: (out) => {
      queryClient.setQueryData<SessionUser | null>(accountKeys.session(), (user) => user && { ...user, avatar: out.avatar });
      void queryClient.invalidateQueries({ queryKey: socialKeys.profile(userId) });
    },
  });
}

export function useEmailLink(id: number, token: string, enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.emailLink(id, token),
    queryFn: () => call(settings.emailNotificationSettings, { id, token }),
    enabled,
  });
}

export function useUpdateEmailLink(id: number, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notify: boolean) => call(settings.updateEmailNotifications, { id, token, notify_via_email: notify }),
    onSuccess: (out) =>
      queryClient.setQueryData(settingsKeys.emailLink(id, token), (old: { username: string } | undefined) => old && { ...old, notify_via_email: out.notify_via_email }),
  });
}

/** A new password; the server keeps this session and ends the others. */
export function useChangePassword(userId: number) {
  return useMutation({
    mutationFn: (input: Omit<CallInput<typeof accounts.changePassword>, 'id'>) => call(accounts.changePassword, { id: userId, ...input }),
  });
}

/** Deletes the account; the session ends with it, so every cached answer of it goes too. */
export function useDeleteAccount(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (currentPassword: string | undefined) =>
      call(accounts.deleteAccount, { id: userId, ...(currentPassword === undefined ? {} : { current_password: currentPassword }) }),
    onSuccess: () => signedOut(queryClient),
  });
}
