/** User-facing texts. Those quoted by the spec are verbatim; the rest follow its tone. */
export const MSG = {
  // Login (part 1 §5, part 2 §8)
  usernameOrEmailRequired: 'Username or Email is required.',
  passwordRequired: 'Password is required',
  loginGenericError: 'An error occured. Please try again.',
  invalidCredentials: 'The username or password you entered is incorrect.',
  tooManyAttempts: 'Too many failed attempts. Please wait a few minutes and try again.',
  tooManySignUps: 'Too many accounts were created from this address. Please wait a few minutes and try again.',
  tagline: 'Your audience, your rewards.',

  // Sign-up (part 1 §5)
  birthdayRequired: 'Birthday is required',
  birthdayInvalid: 'Birthday must be a valid date (DD-MM-YYYY)',
  birthdayInFuture: 'Birthday cannot be in the future',
  tooYoung: 'You must be at least 14 years old to register.',
  countryRequired: 'Country is required',
  usernameRequired: 'Username is required',
  usernameShape: 'Username must be 3 to 30 letters, digits, dots or underscores',
  emailRequired: 'Email is required',
  emailInvalid: 'This Email Address is not valid',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordsDoNotMatch: 'Passwords do not match',
  termsRequired: 'You must accept the terms and conditions',
  captchaFailed: 'Please confirm you are not a robot and try again.',
  usernameTaken: 'This username is already taken.',
  emailTaken: 'An account with this email already exists.',
  chooseInterests: 'Choose Your Interests',
  interestsMin: 'Choose at least three interest to keep the fun going!',
  interestUnknown: 'One or more interests do not exist.',

  // Terms (part 1 §5)
  termsChoiceRequired: 'You must select one option.',

  // Gates (part 1 §6)
  loginRequired: 'Please login before accessing this page',
  notAllowed: 'Sorry, you are not allowed to view this page',

  // Generic API outcomes
  notLoggedIn: 'Please log in to continue.',
  forbidden: 'You are not allowed to do that.',
  notFound: 'Not found.',
  csrf: 'Your session token is missing or expired. Reload the page and try again.',
  internal: 'Something went wrong. Please try again later.',
  searchMin: 'Please enter at least {n} characters',
  searchEmpty: "We couldn't find what you were looking for. Please try a different search term.",

  // Password recovery (part 1 §2, §5)
  recoveryUserNotFound: 'We could not find an account with that username.',
  recoveryCodeRequired: 'Recovery Code is Required',
  recoveryCodeInvalid: 'The recovery code is not valid.',
  recoveryCodeExpired: 'The recovery code has expired. Please request a new one.',
  recoveryTooManyTries: 'Too many wrong codes. Please request a new code.',
  recoveryTooManyRequests: 'Too many recovery requests. Please wait a few minutes and try again.',
  recoveryCodeSent: 'Code Sent!',
  recoveryNewPassword: 'New Password',
  recoverySuccess: 'Successful!',
  mailUnavailable: 'We could not send the email right now. Please try again in a few minutes.',

  // Social sign-in (part 1 §2, part 2 §8)
  moreInfoNeeded: 'More Info Needed',
  socialEmailExists: 'An account with the email of this social account already exists. Please log in directly.',
  socialFailed: 'Social sign-in did not complete. Please try again.',
  facebookMigrated: 'Your account has been migrated: Facebook sign-in is no longer available. Reset your password to log in.',
  facebookEmailScope: 'Facebook sign-in needs permission to read your email address.',

  // Settings (part 2 §5, §8)
  settingsUpdated: 'Your Settings are updated!',
  currentPasswordForEmail: 'Enter your current password to change your email.',
  currentPasswordWrong: 'Your current password is not correct.',
  fullNameRequired: 'Full Name is required',
  avatarNotImage: 'Please choose an image file (JPEG, PNG, WebP or GIF).',
  avatarTooBig: 'This image is too big. Maximum upload size is 5 MB.',

  // Follow (part 2 §8)
  followFailed: 'Failed to follow/unfollow.',
  notifyFailed: 'Failed to update notifications.',
  noFollowing: 'Not following anyone yet',
  linkCopied: 'Link copied to clipboard',
  // Empty states (part 1 §2 Channels, part 2 §8)
  noStreamsFound: 'No Streams Found',
  noImagesInChannel: 'No images found in this channel',
  noFollowers: 'No followers available',
  cannotFollowSelf: 'You cannot follow yourself.',
  notifyNeedsFollow: 'Follow this user first to turn on notifications.',
  userNotFound: 'This user does not exist.',

  // Live streaming (part 1 §2, §4, §5; part 2 §8)
  updateBroadcastInfoFirst: 'Please update the broadcast info first.',
  titleRequired: 'Title is required',
  titleTooShort: 'Title must have at least 2 letters.',
  streamNotAvailable: 'This stream is not available',
  streamDisconnected: 'You have been disconnected from the stream',
  noStreamsInChannel: 'No streams found in this channel',
  streamFollowersOnly: 'This stream is for followers of the broadcaster.',
  streamSubscribersOnly: 'This stream is for subscribers of the broadcaster.',
  streamPrivate: 'This stream is private.',
  streamAdultOnly: 'This stream is for adults only.',
  streamBlocked: 'You have been blocked from this stream.',
  ratingNotAllowed: 'You are not allowed to stream with this rating.',
  cannotGoLive: 'Your account is not allowed to go live.',
  setByModerator: 'A moderator set this for your stream; please contact support to change it.',

  // Realtime, chat and stream interactions (part 1 §2, §4, §5; part 2 §8)
  likeLimit: 'You have reached the Like limit',
  leaveMessage: 'Please leave a message',
  chatDisabled: 'Chat is disabled for this stream.',
  chatTooFast: 'You are sending messages too fast. Please wait a moment.',
  chatPaymentNeeded: 'Chatting on this stream is for members with coins. Add coins to your wallet to chat.',
  priorityChatOnly: 'Priority chat is for subscribers and the broadcaster.',
  streamPaused: "You cannot interact with the stream while it's paused",
  ratingFailed: 'Fail to add rating, {message}',
  streamEndedTitle: 'Stream ended',
  complaintTypeRequired: 'Complaint Type cannot be blank.',
  complaintFiled: 'Complaint filed',
  complaintFailed: 'Failed to create complaint',
  cannotReportOwnStream: 'You cannot report your own stream.',
  cannotSaveOwn: 'You cannot save your own post.',
  cannotSavePrivate: 'Private streams cannot be saved.',
  cannotRateOwnStream: 'You cannot rate your own stream.',
  cannotBanOwner: 'The broadcaster cannot be banned from their own stream.',
  cannotBanModerator: 'Moderators cannot be banned from a stream.',
  translationUnavailable: 'Translation is not available right now.',
} as const;

/** Fills `{name}` placeholders: fill(MSG.searchMin, { n: 3 }). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
