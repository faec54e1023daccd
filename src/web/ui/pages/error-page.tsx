import type { Child } from 'hono/jsx';
import { Layout } from '../layout.js';

/** A refusal or a failure as a page (404, 403, 500): what happened, never a stack. */
export function ErrorPage(props: { status: number; message: string; nav?: Child }) {
  return (
    <Layout title={`${props.status} — Votal`} nav={props.nav}>
      <h1>{props.status === 404 ? 'Not found' : props.status === 403 ? 'Refused' : 'Something went wrong'}</h1>
      <p>{props.message}</p>
    </Layout>
  );
}
