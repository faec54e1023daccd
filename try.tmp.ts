import { readFileSync } from 'node:fs';
import { xenforo2 } from './scrapers/xenforo2.js';
import { phpbb } from './scrapers/phpbb.js';
import { DEFAULT_PROFILE } from './scrapers/site-profile.js';
const f = process.argv[2]!; const a = f.includes('phpBB') ? phpbb : xenforo2;
const html = readFileSync(f, 'utf8');
const p = a.parsePage(html, { url: process.argv[3]!, profile: DEFAULT_PROFILE, now: '2024-06-19T12:00:00Z' });
console.log(p.title, p.page, p.pageCount, p.postsPerPage, p.posts.length);
for (const post of p.posts) console.log(post.id, post.number, post.author, post.authorId, post.postedAt, post.permalink, JSON.stringify(post.edit), JSON.stringify(post.body).slice(0, 300));
