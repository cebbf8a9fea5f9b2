// Where things live. Everything the scripts create stays inside the repository's git-ignored
// folders (.n8n-app, .demo, .tools) or the system temp folder.
import path from 'path';
import pkg from '../../package.json';

export const ROOT = path.resolve(__dirname, '..', '..');
export const PACKAGE_NAME = pkg.name;
export const PACKAGE_VERSION = pkg.version;
// N8N_APP_DIR moves the n8n installs elsewhere (e.g. a CI cache folder); default .n8n-app. Each
// n8n version gets its own folder in it (n8n-<version>), and so does each Node.js (node-<version>).
export const APP_ROOT = path.resolve(process.env.N8N_APP_DIR || path.join(ROOT, '.n8n-app'));
export const appDir = (n8nVersion: string): string => path.join(APP_ROOT, `n8n-${n8nVersion}`);
export const nodeDir = (nodeVersion: string): string => path.join(APP_ROOT, `node-${nodeVersion}`);
export const DEMO_DIR = path.resolve(process.env.PGW_DEMO_DIR || path.join(ROOT, '.demo'));
export const TOOLS_DIR = path.join(ROOT, '.tools');
export const EXAMPLES_DIR = path.join(ROOT, 'examples');
export const IMAGES_DIR = path.join(ROOT, 'docs', 'images');
