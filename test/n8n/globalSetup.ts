// Builds and packs the package once per command, before any worker starts; each worker (one per
// project) installs that tarball. The runner removes it when it exits.
import { buildAndPack, PACKED_ENV } from '../../scripts/n8n/pack';

export default async function globalSetup(): Promise<void> {
	process.env[PACKED_ENV] = JSON.stringify(await buildAndPack());
}
