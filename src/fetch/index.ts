export * from './errors.js';
export { FetchedPage, Validators } from './fetched-page.js';
export { DEFAULT_USER_AGENT, PageFetcherOptions, type RequestInfo } from './fetcher-options.js';
export { PageFetcher } from './page-fetcher.js';
export { assertPublicUrl, isPrivateAddress, type ResolveHost } from './private-host.js';
export { redactUrl } from './redact-url.js';
