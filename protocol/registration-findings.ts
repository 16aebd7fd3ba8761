import { childPath, type JsonObject, type Violation } from './json.js';

const REG1 = 'AHP-REG-001';

/** Collects violations and warnings while walking a document. */
export class Findings {
  readonly violations: Violation[] = [];
  readonly warnings: Violation[] = [];
  add(path: string, message: string, requirement = REG1): void {
    this.violations.push({ path, message, requirement });
  }
  warn(path: string, message: string, requirement = 'AHP-CORE-003'): void {
    this.warnings.push({ path, message, requirement });
  }
  /** Unknown fields are tolerated (AHP-CORE-003) and reported as warnings. */
  unknownKeys(obj: JsonObject, known: ReadonlySet<string>, path: string): void {
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) this.warn(childPath(path, key), `unknown field "${key}" ignored`);
    }
  }
}
