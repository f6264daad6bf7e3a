/** The public face of accounts: The session, sign-in prompts and the account pieces other features show (interest chips, the salutation and country selects). Other features import accounts only from here. */
export { AuthCard } from './AuthCard';
export { InterestChips, InterestsFooter, toggled } from './InterestsStep';
export { LoginPrompt } from './LoginPrompt';
export { CountrySelect, SalutationSelect } from './SignUpFields';
export { accountKeys, setSessionUser, signedOut, useAddInterests, useInterestList, useMemberAction, useSession, useUserInterests } from './api';
export { PageSpinner } from './gates';
export { useSendToLogin } from './use-require-login';
