/**
 * What the sign-in page says for an `error` in its address: next-auth's codes for OAuth failures and the app's
 * refusals of OpenID Connect sign-ins. Only known codes are described; anything else gets the general message,
 * so the address cannot put words of someone else's on the page.
 */
export function signInErrorMessage(code: string | undefined, providerName: string): string | null {
  if (!code) return null;
  switch (code) {
    case 'OAuthSignin':
      return `${providerName} could not be reached to start signing in. Try again in a few minutes; if it keeps failing, tell your administrator.`;
    case 'OAuthCallback':
      return `Signing in with ${providerName} failed: its answer could not be verified (the token was invalid, expired or meant for another app) or it stopped answering. You are not signed in and nothing was changed; try again.`;
    case 'OidcDisabled':
      return 'This account is disabled. Ask an administrator to enable it.';
    case 'OidcEmailTaken':
      return `An account with the email ${providerName} sent already exists here, and accounts are not joined by email. Sign in with that account's password, or ask an administrator.`;
    case 'OidcNoEmail':
      return `${providerName} did not send a valid email address, which an account here needs. Ask your administrator to release the email claim to this app.`;
    default:
      return 'Signing in did not complete. Nothing was changed; try again.';
  }
}
