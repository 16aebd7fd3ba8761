import { describe, expect, it } from 'vitest';
import { validateMessageList, validatePartList } from '../../../protocol/content.js';
import type { JsonValue } from '../../../protocol/json.js';
import {
  CONTENT_EDIT_TARGETS,
  contentEdit,
  contentShape,
  contentWithAttachment,
  givenList,
  textContent,
  withGap,
} from './content-edit-data.js';

describe('content edit data', () => {
  it('gives each target a text-only content and edits whose values fit the target', () => {
    for (const target of CONTENT_EDIT_TARGETS) {
      const given = textContent(target, 'n1');
      expect(given.messages.flatMap((m) => m.parts).every((p) => p.kind === 'text')).toBe(true);
      for (const operation of ['replace', 'merge'] as const) {
        const edit = contentEdit(target, operation, given, 'n1');
        const check = target.list === 'parts' ? validatePartList : validateMessageList;
        expect(check(edit.value, '$')).toEqual([]);
        expect(check(edit.effective, '$')).toEqual([]);
      }
    }
  });

  it('makes a replace the value itself and a merge the original with the entry twice', () => {
    const target = CONTENT_EDIT_TARGETS.find((t) => t.event === 'turn.start');
    if (target === undefined) throw new Error('turn.start is a content target');
    const given = textContent(target, 'n2');
    const replace = contentEdit(target, 'replace', given, 'n2');
    expect(replace.effective).toEqual(replace.value);
    const merge = contentEdit(target, 'merge', given, 'n2');
    expect(merge.value).toHaveLength(2);
    expect(merge.effective).toEqual([...givenList(target, given), ...merge.value]);
  });

  it('compares ids, roles, kinds and texts only, not a view of an attachment', () => {
    const target = CONTENT_EDIT_TARGETS[0];
    if (target === undefined) throw new Error('a target');
    const list = givenList(target, contentWithAttachment(target, 'n3'));
    const asGap = JSON.parse(
      JSON.stringify(list).replace(/"body":\{"ref":"[^"]*"\}/, '"gap":{"reason":"x"}'),
    );
    expect(contentShape(asGap as JsonValue)).toEqual(contentShape(list));
    const changedText = JSON.parse(JSON.stringify(list).replace('Which files', 'Which dirs'));
    expect(contentShape(changedText as JsonValue)).not.toEqual(contentShape(list));
  });

  it('hands a text part in as a valid content gap, nothing else changed', () => {
    const target = CONTENT_EDIT_TARGETS[0];
    if (target === undefined) throw new Error('a target');
    const list = givenList(target, textContent(target, 'n4'));
    const gapped = withGap(list, 'user-1');
    expect(validateMessageList(gapped, '$')).toEqual([]);
    expect(JSON.stringify(gapped)).not.toContain('zqmark-n4-user-1');
    expect(contentShape(withGap(list, 'no-such-part'))).toEqual(contentShape(list));
  });
});
