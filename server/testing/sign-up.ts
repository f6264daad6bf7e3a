/** The body of a valid user-register call for the given username (its email follows from it). */
export const signUpBody = (username: string, overrides: Record<string, unknown> = {}) => ({
  username,
  email: `${username}@example.com`,
  password: 'a-good-password',
  birthday: '01-01-2000',
  country: 'US',
  terms_accepted: true,
  ...overrides,
});
