import type { Timeline } from './timeline.js';

/**
 * The vote timeline as an SVG line chart: one step line per wagon over the Day's posts,
 * the threshold as a dashed line. Colours come from classes (the CSP allows no inline
 * style); the numbers are also in a table for screen readers.
 */
const W = 640;
const H = 240;
/** Room for the labels at the phone's larger font (20 units): the top tick's number, the first and last post. */
const PAD = { left: 34, right: 12, top: 22, bottom: 30 };

export function TimelineChart(props: { timeline: Timeline; id?: string }) {
  const t = props.timeline;
  const id = props.id ?? 'timeline';
  if (t.posts.length === 0 || t.series.length === 0) {
    return <p class="muted">No votes yet: the timeline starts with the first vote.</p>;
  }
  const top = Math.max(1, t.threshold ?? 0, ...t.series.flatMap((s) => s.values));
  const first = t.posts[0]!;
  const last = t.posts.at(-1)!;
  const span = Math.max(1, last - first);
  const x = (post: number): number => PAD.left + ((post - first) / span) * (W - PAD.left - PAD.right);
  const y = (v: number): number => H - PAD.bottom - (v / top) * (H - PAD.top - PAD.bottom);
  const f = (n: number): string => n.toFixed(1);
  const yTicks = ticks(top);
  const xTicks = postTicks(t.posts);

  const step = (values: number[]): string => {
    const pts: string[] = [];
    values.forEach((v, i) => {
      const px = x(t.posts[i]!);
      if (i > 0) pts.push(`${f(px)},${f(y(values[i - 1]!))}`);
      pts.push(`${f(px)},${f(y(v))}`);
    });
    return pts.join(' ');
  };

  return (
    <figure class="timeline">
      <section
        class="timeline-scroll"
        tabindex={0}
        aria-label="Vote timeline chart (scrolls sideways on small screens)"
      >
        <svg
          class="chart"
          viewBox={`0 0 ${W} ${H}`}
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          preserveAspectRatio="xMidYMid meet"
        >
          <title id={`${id}-title`}>Vote timeline</title>
          <desc id={`${id}-desc`}>
            {`Size of each wagon after every post from post ${first} to post ${last}. `}
            {t.series
              .map((s) => `${s.target}: ${s.values.at(-1) ?? 0} now, at most ${Math.max(...s.values)}.`)
              .join(' ')}
          </desc>
          {yTicks.map((v) => (
            <g>
              <line class="axis" x1={PAD.left} x2={W - PAD.right} y1={f(y(v))} y2={f(y(v))} stroke-width="1" />
              <text x={PAD.left - 6} y={f(y(v) + 4)} text-anchor="end">
                {v}
              </text>
            </g>
          ))}
          {xTicks.map((p) => (
            // The first and last post's labels stay inside the chart instead of half over its edge.
            <text x={f(x(p))} y={H - 10} text-anchor={p === first ? 'start' : p === last ? 'end' : 'middle'}>
              {`#${p}`}
            </text>
          ))}
          {t.threshold !== null && t.threshold <= top ? (
            <g>
              <line
                class="threshold"
                x1={PAD.left}
                x2={W - PAD.right}
                y1={f(y(t.threshold))}
                y2={f(y(t.threshold))}
                stroke-width="1.5"
              />
              <text x={W - PAD.right} y={f(y(t.threshold) - 4)} text-anchor="end">{`majority ${t.threshold}`}</text>
            </g>
          ) : null}
          {t.series.map((s, i) => (
            <g class={`s${i}`}>
              <polyline points={step(s.values)} />
              <circle cx={f(x(t.posts.at(-1)!))} cy={f(y(s.values.at(-1) ?? 0))} r="4" />
            </g>
          ))}
        </svg>
      </section>
      <figcaption>
        <ul class="legend" aria-hidden="true">
          {t.series.map((s, i) => (
            <li>
              <span class={`swatch s${i}`}></span>
              {s.target} ({s.values.at(-1) ?? 0})
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

function ticks(top: number): number[] {
  const step = top <= 6 ? 1 : top <= 12 ? 2 : Math.ceil(top / 6);
  const out: number[] = [];
  for (let v = 0; v <= top; v += step) out.push(v);
  return out;
}

function postTicks(posts: readonly number[]): number[] {
  if (posts.length <= 6) return [...posts];
  const out = new Set<number>();
  for (let i = 0; i < 6; i++) out.add(posts[Math.round((i * (posts.length - 1)) / 5)]!);
  return [...out];
}
