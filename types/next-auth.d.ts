import 'next-auth';
import 'next-auth/jwt';

declare module 'next-auth' {
  interface User {
    sessionVersion: number;
  }
  interface Session {
    uid: number;
    sv: number;
    sid: string;
    auth: number;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    uid: number;
    sv: number;
    /** This sign-in's id, so signing out can end it alone. */
    sid: string;
    /** When the user signed in (seconds since the epoch): no session outlives SKB_SESSION_HOURS from then. */
    auth: number;
  }
}
