import { rmSync } from 'fs';

export default function globalTeardown(): void {
	const root = process.env.N8N_PG_TEST_ROOT;
	if (root) rmSync(root, { recursive: true, force: true });
}
