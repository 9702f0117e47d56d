/** Reading a `SiteConfig` from a JSON file (`serve --site`), checked as `createSite` checks it. */

import { readFile } from 'node:fs/promises';
import type { SiteConfig } from '../domain/site/config.js';
import { type Checked, checkSiteConfig } from '../domain/site/config-check.js';

export {
  type Checked,
  checkSiteConfig as parseSiteConfig,
  siteConfigSchema,
} from '../domain/site/config-check.js';

/** Reads and checks a site configuration file. */
export async function readSiteConfig(path: string): Promise<Checked<SiteConfig>> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (error) {
    const message = `cannot read ${path}: ${error instanceof Error ? error.message : 'error'}`;
    return { ok: false, error: message, problems: [message] };
  }
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch {
    return { ok: false, error: `${path} is not valid JSON`, problems: [`${path} is not valid JSON`] };
  }
  const checked = checkSiteConfig(json);
  return checked.ok ? checked : { ...checked, error: `${path}: ${checked.error}` };
}
