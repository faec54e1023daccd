import { PostButton } from './layout.js';

/** One answer an item of the GM's takes: the button's words, the `answer` it posts, its look. */
export interface ItemAnswer {
  label: string;
  answer: string;
  class?: string;
}

/**
 * An item's answers, one button each, every one posting `{ key, answer }` to the same
 * route: the news, the count checks and the lessons answer their items alike.
 */
export function AnswerButtons(props: {
  action: string;
  csrf: string;
  itemKey: string;
  answers: readonly ItemAnswer[];
}) {
  return (
    <>
      {props.answers.map((a) => (
        <PostButton
          action={props.action}
          csrf={props.csrf}
          label={a.label}
          class={a.class}
          fields={{ key: props.itemKey, answer: a.answer }}
        />
      ))}
    </>
  );
}

/** "Dismiss": the answer every item of the GM's takes. */
export const DISMISS_ANSWER: ItemAnswer = { label: 'Dismiss', answer: 'dismiss', class: 'secondary' };
