import { z } from 'zod';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'an environment variable name' });

/**
 * How to log in to a board with its own HTML form, as data. Credentials never live in
 * the profile: it names the environment variables that hold them. The form's hidden
 * fields (CSRF tokens) are copied from the login page at run time.
 */
export const LoginForm = z.strictObject({
  /** The page with the login form. */
  url: z.url({ protocol: /^https?$/ }),
  /** CSS selector of the form; default: the form that holds a password input. */
  form: z.string().min(1).optional(),
  /** Name of the form's user name field (`login` on XenForo, `username` on phpBB). */
  usernameField: z.string().min(1),
  passwordField: z.string().min(1),
  usernameEnv: EnvName,
  passwordEnv: EnvName,
  /** Extra fields to send (e.g. `remember: "1"`, phpBB's `login: Login`). */
  fields: z.record(z.string(), z.string()).default({}),
  /** A cookie whose presence means "logged in" (e.g. `xf_user`, `phpbb3_xxx_u`): no login needed. */
  sessionCookie: z.string().min(1).optional(),
});
export type LoginForm = z.infer<typeof LoginForm>;
