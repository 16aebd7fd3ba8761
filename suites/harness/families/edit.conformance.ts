// AHP-EDIT-001: modify effects on the tool input at tool.before, through a chain of backends (a
// mock each): replace and shallow merge as the next interceptor and the observers see them, whole-
// response atomic acceptance with the failure policy applied once, and the advertised authority
// (edit-cases.ts, judged in edit-judge.ts, data in edit-case-data.ts); and modify effects on the
// content target of every content event, over HTTP: replace and merge passed on, no whole-list
// replace of withheld text, attachments immutable (content-edit-cases.ts, data in
// content-edit-data.ts).
import { useHarnessFixture } from '../kit/fixture.js';
import { declareContentEditCases } from './content-edit-cases.js';
import { declareEditCases } from './edit-cases.js';

const fixture = useHarnessFixture();
declareEditCases(fixture);
declareContentEditCases(fixture);
