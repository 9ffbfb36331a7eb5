import { describe, expect, it } from 'vitest';
import {
  checkLayout,
  commentsButton,
  comment,
  deletedComment,
  indent,
  isFocused,
  note,
  postComment,
  thread,
  threadOf,
  threadPeople,
  WIDTHS,
} from './threads.ts';

/*
 * Threads under an entry in the browser, with the real server: answers under their parent
 * (three levels, then 'in reply to {name}'), a reply written in place (Escape and Cancel give
 * focus back to 'Reply', sending says so and focuses the reply), a private reply read only by
 * whom it answers, a deleted comment kept for its answers; each at a desktop and a 320 px phone
 * width, with axe's check. Mentions and cheers: comment-mentions-and-cheers.test.ts.
 */

const { openAs, ashLogs, openThread } = threadPeople();

describe.each(WIDTHS)('a thread at %s width', (_label, width) => {
  it('answers a comment in place: Escape and Cancel give focus back, sending focuses the reply', async () => {
    const id = await ashLogs(`Oban 14 (${width})`);
    const larch = await openAs('larch', '/activity');
    const first = await postComment(larch, id, 'Orange peel and sea salt.');

    const beech = await openThread('beech', `Oban 14 (${width})`, width);
    const peel = comment(beech, 'Orange peel');
    const reply = peel.getByRole('button', { name: 'Reply to Larch Kiln' });
    const field = thread(beech).getByRole('textbox', { name: 'Reply to Larch Kiln' });
    await reply.click();
    await expect.poll(() => isFocused(field)).toBe(true);
    expect(await reply.getAttribute('aria-expanded')).toBe('true');
    await thread(beech).getByRole('checkbox', { name: 'Only Larch Kiln' }).waitFor();
    await checkLayout(beech, width);

    // Escape closes the reply, not the thread.
    await beech.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    expect(await thread(beech).count()).toBe(1);
    await expect.poll(() => isFocused(reply)).toBe(true);
    // So does Cancel.
    await reply.click();
    await thread(beech).getByRole('button', { name: 'Cancel' }).click();
    await field.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(reply)).toBe(true);

    await reply.click();
    await field.fill('Agreed, and a little smoke.');
    await thread(beech).getByRole('button', { name: 'Send reply' }).click();
    await note(beech, 'Reply to Larch Kiln sent');
    const answer = comment(beech, 'a little smoke');
    await expect.poll(() => isFocused(answer)).toBe(true);
    await field.waitFor({ state: 'detached' });
    expect(await indent(answer)).toBeGreaterThan(await indent(peel));
    expect(await answer.textContent()).toContain('in reply to Larch Kiln');

    // The server has it under Larch's comment, public.
    const saved = (await threadOf(beech, id)).find((item) => item.content.includes('smoke'));
    expect(saved).toMatchObject({ parentId: first.id, audience: 'PUBLIC' });
    await checkLayout(beech, width);
  });

  it('indents three levels; a deeper answer stays at the third and says whom it answers', async () => {
    const id = await ashLogs(`Talisker 10 (${width})`);
    const [larch, beech, ash] = await Promise.all([
      openAs('larch', '/activity'),
      openAs('beech', '/activity'),
      openAs('ash', '/'),
    ]);
    const one = await postComment(larch, id, 'Level one: pepper.');
    const two = await postComment(beech, id, 'Level two: and smoke.', { inReplyTo: one.id });
    const three = await postComment(ash, id, 'Level three: from the cask.', { inReplyTo: two.id });
    await postComment(larch, id, 'Level four: which cask?', { inReplyTo: three.id });
    await postComment(beech, id, 'Another first level.');

    const fir = await openThread('fir', `Talisker 10 (${width})`, width);
    const texts = await thread(fir).locator('.comment__content').allTextContents();
    expect(texts).toEqual([
      'Level one: pepper.',
      'Level two: and smoke.',
      'Level three: from the cask.',
      'Level four: which cask?',
      'Another first level.',
    ]);
    const [first, second, third, fourth] = await Promise.all(
      ['Level one', 'Level two', 'Level three', 'Level four'].map((text) =>
        indent(comment(fir, text)),
      ),
    );
    expect(second!).toBeGreaterThan(first!);
    expect(third!).toBeGreaterThan(second!);
    expect(fourth).toBe(third);
    // Shown, not only said: the indentation cannot tell whom it answers.
    await comment(fir, 'Level four').getByText('in reply to Ash Cooper').waitFor();
    expect(await indent(comment(fir, 'Another first level'))).toBe(first);
    await checkLayout(fir, width);
  });

  it('sends a private reply that only its author and whom it answers read', async () => {
    const id = await ashLogs(`Lagavulin 16 (${width})`);
    const larch = await openAs('larch', '/activity');
    await postComment(larch, id, 'Iodine, then toffee.');

    const beech = await openThread('beech', `Lagavulin 16 (${width})`, width);
    await comment(beech, 'Iodine').getByRole('button', { name: 'Reply to Larch Kiln' }).click();
    await thread(beech)
      .getByRole('textbox', { name: 'Reply to Larch Kiln' })
      .fill('Just between us: too much iodine.');
    await thread(beech).getByRole('checkbox', { name: 'Only Larch Kiln' }).check();
    await thread(beech).getByRole('button', { name: 'Send reply' }).click();
    await note(beech, 'Private reply sent to Larch Kiln');
    const secret = comment(beech, 'Just between us');
    await secret.getByText('Private reply', { exact: true }).waitFor();
    await expect.poll(() => isFocused(secret)).toBe(true);
    await checkLayout(beech, width);

    // Larch reads it, marked so; Fir, who also sees the entry, does not, nor its count.
    const larchThread = await openThread('larch', `Lagavulin 16 (${width})`, width);
    await comment(larchThread, 'Just between us')
      .getByText('Private reply', { exact: true })
      .waitFor();
    // Answering oneself offers no private reply.
    await comment(larchThread, 'Iodine')
      .getByRole('button', { name: 'Reply to Larch Kiln' })
      .click();
    await thread(larchThread).getByRole('textbox', { name: 'Reply to Larch Kiln' }).waitFor();
    expect(await thread(larchThread).getByRole('checkbox').count()).toBe(0);
    const firFeed = await openAs('fir', '/activity');
    await commentsButton(firFeed, `Lagavulin 16 (${width})`, '1').waitFor();
    const firThread = await openThread('fir', `Lagavulin 16 (${width})`, width);
    await comment(firThread, 'Iodine').waitFor();
    expect(await comment(firThread, 'Just between us').count()).toBe(0);
    expect((await threadOf(firThread, id)).map((item) => item.content)).toEqual([
      'Iodine, then toffee.',
    ]);
  });

  it('keeps a deleted comment’s answers under “A deleted comment”', async () => {
    const id = await ashLogs(`Ardbeg 10 (${width})`);
    const beech = await openAs('beech', '/activity');
    const larchPage = await openAs('larch', '/activity');
    const parent = await postComment(larchPage, id, 'Peat bomb, to be deleted.');
    await postComment(beech, id, 'Tar and lime.', { inReplyTo: parent.id });

    const larch = await openThread('larch', `Ardbeg 10 (${width})`, width);
    const doomed = comment(larch, 'Peat bomb');
    await doomed.getByRole('button', { name: 'Delete comment by Larch Kiln' }).click();
    await doomed.getByRole('button', { name: 'Yes, delete' }).click();
    await note(larch, 'Comment deleted');
    const gone = deletedComment(larch);
    await gone.waitFor();
    expect(await gone.getByRole('button').count()).toBe(0);
    expect(await comment(larch, 'Larch Kiln').count()).toBe(0);
    await comment(larch, 'Tar and lime').getByText('in reply to a deleted comment').waitFor();
    await checkLayout(larch, width);

    // Everyone reading the thread sees the same: the answer stays, under the deleted comment.
    const fir = await openThread('fir', `Ardbeg 10 (${width})`, width);
    expect(
      await thread(fir).locator('.comment__content, .comment__deleted').allTextContents(),
    ).toEqual(['A deleted comment', 'Tar and lime.']);
    expect(await indent(comment(fir, 'Tar and lime'))).toBeGreaterThan(
      await indent(deletedComment(fir)),
    );
    await checkLayout(fir, width);
  });
});
