/** User-facing texts. Those quoted by the spec are verbatim; the rest follow its tone. */
export const MSG = {
  // Login (part 1 §5, part 2 §8)
  usernameOrEmailRequired: 'Username or Email is required.',
  passwordRequired: 'Password is required',
  loginGenericError: 'An error occured. Please try again.',
  invalidCredentials: 'The username or password you entered is incorrect.',
  tooManyAttempts: 'Too many failed attempts. Please wait a few minutes and try again.',
  loginProofRequired: 'Too many failed attempts. Your browser has to pass a longer check before you can log in: please try again.',
  tooManySignUps: 'Too many accounts were created from this address. Please wait a few minutes and try again.',
  tagline: 'Your audience, your rewards.',

  // Field checks of the contract's schemas
  mustBeText: 'Must be text',
  mustBeOneOf: 'Must be one of {values}',
  atMostChars: 'Must be at most {max} characters',
  mustBeTrueOrFalse: 'Must be true or false',
  mustBeUserId: 'Must be a user id',
  mustBeStreamId: 'Must be a stream id',
  mustBeMessageId: 'Must be a message id',
  nothingToUpdate: 'Nothing to update',
  tokenRequired: 'token is required',
  localeInvalid: 'Must be a locale like en or en-US',
  languageInvalid: 'Must be a language code such as en or pt-BR',
  nothingToTranslate: 'Nothing to translate',
  ratingStars: 'Must be 1 to 5 stars',
  coinsNumber: 'Must be a number of coins',
  coinsWhole: 'Must be a whole number of coins',
  coinsAtLeastOne: 'Must be at least 1 coin',
  coinsAtMost: 'Must be at most {max} coins',
  choosePackage: 'Please choose a package',
  cardNumberRequired: 'Card number is required',
  cardNumberInvalid: 'This card number is not valid',
  expiryMonthRequired: 'Expiry month is required',
  expiryMonthInvalid: 'Expiry month is not valid',
  expiryYearRequired: 'Expiry year is required',
  expiryYearInvalid: 'Expiry year is not valid',
  cvcRequired: 'CVC is required',
  cvcInvalid: 'CVC is not valid',
  cardNameRequired: 'Name on card is required',

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
  interestsNotSaved: 'Could not save your interests',

  // Terms (part 1 §5)
  termsChoiceRequired: 'You must select one option.',

  // Gates (part 1 §6)
  loginRequired: 'Please login before accessing this page',
  notAllowed: 'Sorry, you are not allowed to view this page',

  // Generic API outcomes (the default texts of common/errors.ts)
  invalidRequest: 'Invalid request',
  unknownField: 'Unknown field: {field}',
  bodyNotObject: 'The request body must be a JSON object',
  textHasNul: 'Text cannot contain a NUL character.',
  badRequest: 'The request could not be read.',
  tooLarge: 'This request is too big.',
  notLoggedIn: 'Please log in to continue.',
  forbidden: 'You are not allowed to do that.',
  ownAccountOnly: 'You can only do this for your own account.',
  notFound: 'Not found.',
  noSuchEndpoint: 'No such endpoint: {method} {path}',
  linkInvalid: 'This link is not valid.',
  conflict: 'This conflicts with an earlier request.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  csrf: 'Your session token is missing or expired. Reload the page and try again.',
  internal: 'Something went wrong. Please try again later.',
  serviceUnavailable: 'The service is not available right now. Please try again in a few minutes.',
  databaseUnreachable: 'The database is not reachable.',
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
  avatarNotSaved: 'Could not upload the photo',
  adultFilterNotOffered: 'The 18+ filter is not offered here.',
  passwordChanged: 'Your password has been changed. You were signed out everywhere else.',
  newPasswordSame: 'Choose a new password different from the current one.',
  currentPasswordRequired: 'Enter your current password.',
  passwordTriesExceeded: 'Too many wrong passwords. Please wait 15 minutes and try again.',
  signInAgainToDelete: 'Please sign out and sign in again, then delete your account within 10 minutes.',
  accountDeleted: 'Your account has been deleted.',

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
  noUserNamed: 'No user named {username}',

  // Live streaming (part 1 §2, §4, §5; part 2 §8)
  updateBroadcastInfoFirst: 'Please update the broadcast info first.',
  titleRequired: 'Title is required',
  titleTooShort: 'Title must have at least {min} letters.',
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
  privateReplayAudience: 'The audience of a private replay cannot change.',
  noPictureWhileOffline: 'The stream is not live: there is no picture to take.',
  adminsNotSuspendable: 'Administrators cannot be suspended here.',
  noSuchChannel: 'No such channel.',
  liveConnectionRefused: 'This page may not open a live connection here.',
  tooManyChannels: 'Too many channels.',
  alreadySignedIn: 'You are already signed in. Sign out first to use another account.',
  tooManyConnections: 'Too many live connections. Close other tabs and try again.',
  subscribingTooFast: 'Joining channels too fast. Please wait a moment.',

  // Stream payment (part 1 §4 Stream lifecycle, §5 Broadcast setup)
  tipToWatch: 'Tip {owed} coins to watch this stream.',
  tipMultipleOf10: 'Must be multiple of 10, ie. 10, 20, 100',
  tipPositive: 'Must be a positive number',
  paidStaysPaid: 'A paid stream cannot be made free again.',

  // Tips (part 1 §2 Tip selector; part 2 §8 tip errors)
  tipFailureTitle: 'Tip Sending Failure',
  tipFailed: 'Something went wrong, fail to tip!',
  insufficientFunds: 'Insufficient funds',
  cannotTipUser: 'Cannot tip this user',
  broadcasterCannotReceiveTips: 'The broadcaster cannot receive tips at this time',
  notEnoughCoinsForTip: "You don't have enough coins for this tip.",
  tipContactSupport: 'Please try again later, or contact customer support if it keeps happening.',
  tipNetworkFailure: 'The tip could not reach us. Check your connection and try again; you will not be charged twice.',
  cannotTipOwnStream: 'You cannot tip your own stream.',
  tipsTooFast: 'You are sending tips too fast. Please wait a moment.',
  idempotencyKeyRequired: 'Idempotency-Key header is required.',
  idempotencyKeyTooLong: 'Idempotency-Key must be at most {max} characters.',
  idempotencyKeyInvalid: 'The Idempotency-Key header is not valid.',
  idempotencyKeyReused: 'This Idempotency-Key was used for another tip.',

  // Wallet and payments (part 1 §2 wallet pages; part 2 §5 Buy impressions)
  packageUnknown: 'This package is not available.',
  impressionPackageUnknown: 'This impression package is not available.',
  impressionPackageRequired: 'Impression Package cannot be blank.',
  chooseCard: 'Please choose a card or enter one.',
  cardUnknown: 'This card is not saved on your account.',
  cardInvalid: 'This card is not valid.',
  cardExpired: 'Your card has expired.',
  cardDeclined: 'Your card was declined.',
  cardInsufficientFunds: 'Your card has insufficient funds.',
  paymentMethodUnavailable: 'This payment method is not available yet.',
  tooManyPayments: 'Too many payment attempts. Please wait a few minutes and try again.',
  paymentUnknown: 'No such payment.',
  webhookUnsigned: 'The webhook signature is missing.',
  webhookBadSignature: 'The webhook signature is not valid.',
  webhookInvalid: 'The webhook event is not valid.',

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
  cannotLikeOwnStream: 'You cannot like your own stream.',
  channelNotWritable: 'Messages cannot be sent on this channel.',
  frameNotUnderstood: 'The frame is not understood.',
  frameNotJson: 'The frame is not JSON.',
  frameTooLong: 'The frame is too long or not text.',
  likesNotOnPriority: 'Likes go to the stream, not the priority chat.',
  cannotBanOwner: 'The broadcaster cannot be banned from their own stream.',
  cannotBanModerator: 'Moderators cannot be banned from a stream.',
  banFailed: 'The viewer could not be banned.',
  translationUnavailable: 'Translation is not available right now.',
  translationNotConfigured: 'Translation is not configured.',
  tooManyTranslations: 'Too many translations. Please wait a minute and try again.',

  // System (part 1 §2 Other)
  noSuchMessage: 'No such message.',
  tooManyTrackingEvents: 'Too many tracking events from this address.',
} as const;

export type MessageKey = keyof typeof MSG;
/** A text of the catalogue, as it is. */
export type Message = (typeof MSG)[MessageKey];
declare const filled: unique symbol;
/** A catalogue template with its placeholders filled (see `fill`). */
export type FilledMessage = string & { readonly [filled]: true };
/** What an error may say: a catalogue text, filled or not. */
export type CatalogueText = Message | FilledMessage;

/** Fills `{name}` placeholders: fill(MSG.searchMin, { n: 3 }). */
export function fill(template: Message, values: Record<string, string | number>): FilledMessage {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  ) as FilledMessage;
}
