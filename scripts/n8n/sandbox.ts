// The sandbox gateway (TypeScript, in /sandbox), for the scripts that start one.
import * as sandbox from '../../sandbox';

/** { startSandboxGateway, SANDBOX_CREDENTIALS } */
export function loadSandbox(): typeof sandbox {
	return sandbox;
}
