import { publishAad, StoredPublish } from '../config/game-settings.js';
import { MissingSecretKeyError, type SecretBox } from '../config/secrets.js';
import type { SecretScrubber } from '../log/logger.js';
import type { EngineId } from '../model/engine.js';
import type { Game } from '../store/games-repo.js';
import { jarFromJson } from './cookie-jar.js';
import { copyPublisher } from './copy.js';
import { discourseApiPublisher } from './discourse-api.js';
import { formPostPublisher } from './form-post.js';
import type { PublishHttp } from './http.js';
import { PublishConfigError, type Publisher } from './publisher.js';
import { xenforoApiPublisher } from './xenforo-api.js';

export interface PublisherForDeps {
  http: PublishHttp;
  /** Opens the sealed credentials; null: none can be used (copy still works). */
  box: SecretBox | null;
  /** Learns the decrypted secrets, so that they never reach a log line. */
  scrubber?: SecretScrubber;
}

/**
 * The publisher a game's settings ask for (`settings.publish`), with its credentials
 * decrypted for this use only. No setting: copy. `engine` is the game's engine, or the
 * one its latest tally found when the game was added without one.
 */
export function publisherFor(game: Game, engine: EngineId | null, deps: PublisherForDeps): Publisher {
  const raw = game.settings.publish;
  if (raw === undefined) return copyPublisher({ threadUrl: game.threadUrl, engine, http: deps.http });
  const parsed = StoredPublish.safeParse(raw);
  if (!parsed.success) throw new PublishConfigError(`game ${game.id}: the stored publishing settings are not valid; set them again`);
  const publish = parsed.data;
  if (publish.method === 'copy') return copyPublisher({ threadUrl: game.threadUrl, engine, http: deps.http });
  if (!deps.box) throw new MissingSecretKeyError(`publishing with ${publish.method}`);
  const aad = publishAad(game.threadUrl, publish.method);
  switch (publish.method) {
    case 'discourse-api': {
      const apiKey = deps.box.open(publish.apiKey, aad);
      deps.scrubber?.add(apiKey);
      return discourseApiPublisher({ threadUrl: game.threadUrl, apiKey, apiUsername: publish.apiUsername, http: deps.http });
    }
    case 'xenforo-api': {
      const apiKey = deps.box.open(publish.apiKey, aad);
      deps.scrubber?.add(apiKey);
      return xenforoApiPublisher({ threadUrl: game.threadUrl, apiKey, apiUser: publish.apiUser, http: deps.http });
    }
    case 'form': {
      if (!engine) throw new PublishConfigError(`game ${game.id}: the forum engine is not known yet; poll the thread first`);
      const jar = jarFromJson(deps.box.open(publish.jar, aad));
      for (const cookie of jar.serializeSync()?.cookies ?? []) deps.scrubber?.add(String(cookie.value ?? ''));
      return formPostPublisher({ threadUrl: game.threadUrl, engine, jar, http: deps.http });
    }
  }
}
