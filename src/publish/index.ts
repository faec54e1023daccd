/** Publishing approved votals: the port, the publishers, and the exactly-once service. */
export * from './publisher.js';
export * from './marker.js';
export { PublishHttp, type HttpOptions } from './http.js';
export { discourseApiPublisher, type DiscourseApiOptions } from './discourse-api.js';
export { xenforoApiPublisher, type XenforoApiOptions } from './xenforo-api.js';
export { formPostPublisher, type FormPostOptions } from './form-post.js';
export { FORM_FACTS, FormFacts, replyUrl } from './form-facts.js';
export { copyPublisher } from './copy.js';
export { findMarkerInThread, lastPosts } from './thread-scan.js';
export { cookieJarFromExport, jarFromJson } from './cookie-jar.js';
export { publisherFor, type PublisherForDeps } from './publisher-for.js';
export { publishDraft, confirmCopied, type PublishDeps, type PublishResult } from './publish-draft.js';
