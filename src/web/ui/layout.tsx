import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { ASSET_VERSION } from './static.js';

export interface LayoutProps {
  title: string;
  /** Scripts from /ui/static/ besides common.js. */
  scripts?: string[];
  /** Shown in the header bar (sign-out form for the GM). */
  nav?: Child;
  children?: Child;
  /** More for <head> (the live page's no-script refresh). */
  head?: Child;
  /** `robots` meta: live pages may be indexed by nobody. */
  noindex?: boolean;
}

export function Layout(props: LayoutProps) {
  const scripts = ['common.js', ...(props.scripts ?? [])];
  return (
    <>
      {raw('<!DOCTYPE html>')}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light dark" />
          {props.noindex !== false ? <meta name="robots" content="noindex, nofollow" /> : null}
          <title>{props.title}</title>
          <link rel="icon" type="image/svg+xml" href={`/ui/static/favicon.svg?v=${ASSET_VERSION}`} />
          <link rel="stylesheet" href={`/ui/static/votal.css?v=${ASSET_VERSION}`} />
          {scripts.map((s) => (
            <script src={`/ui/static/${s}?v=${ASSET_VERSION}`} defer></script>
          ))}
          {props.head ?? null}
        </head>
        <body>
          <a class="skip" href="#content">
            Skip to content
          </a>
          <header class="top">
            <div class="bar">
              <span class="brand">Votal</span>
              {props.nav ? <nav aria-label="Main">{props.nav}</nav> : null}
            </div>
          </header>
          <main id="content">{props.children}</main>
        </body>
      </html>
    </>
  );
}

/** A hidden CSRF field for every GM form. */
export function Csrf(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** A one-button form (POST) with the CSRF token. */
export function PostButton(props: {
  action: string;
  csrf: string;
  label: string;
  class?: string;
  fields?: Record<string, string>;
  title?: string;
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf token={props.csrf} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.class} title={props.title}>
        {props.label}
      </button>
    </form>
  );
}

/** An ISO time shown in UTC by the server, then in the reader's zone by script. */
export function LocalTime(props: { iso: string }) {
  const d = new Date(props.iso);
  const text = Number.isNaN(d.getTime()) ? props.iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return (
    <time datetime={props.iso} data-local="">
      {text}
    </time>
  );
}

/** The dashboard pages' header bar: the games, a new game, sign out. */
export function GmNav(props: { csrf: string }) {
  return (
    <>
      <a href="/gm">Games</a>
      <a href="/gm/new">New game</a>
      <a href="/gm/nicknames">Nicknames</a>
      <PostButton action="/gm/logout" csrf={props.csrf} label="Sign out" class="secondary" />
    </>
  );
}

/** The flash message (or refusal) the last form left for this page. */
export function Notice(props: { message?: string | null; error?: string | null }) {
  return (
    <>
      {props.message ? (
        <p class="notice" id="flash" role="status">
          {props.message}
        </p>
      ) : null}
      {props.error ? (
        <p class="notice error" id="flash-error" role="alert">
          {props.error}
        </p>
      ) : null}
    </>
  );
}
