/**
 * Stored credential entries whose data reads and writes synchronously on every n8n-core the
 * project runs on. n8n-core 2.8 encrypts with the instance key synchronously. Newer n8n-core
 * (2.41) makes `Credentials.setData`/`getData` async and encrypts through a key provider that only
 * n8n's server configures at start-up; there, an entry keeps n8n's legacy (no-prefix) format, the
 * instance key with aes-256-cbc, which that server still reads, through the cipher's synchronous
 * instance-key methods. The benchmark runs the harness on both (scripts/bench, `--engine`).
 */
import { Credentials } from 'n8n-core';
import type { ICredentialDataDecryptedObject, INodeCredentialsDetails } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

interface InstanceKeyCipher {
	encryptWithInstanceKey?: (data: string | object) => string;
	decryptWithInstanceKey?: (data: string) => string;
}

export function newCredentials(details: INodeCredentialsDetails, type: string): Credentials {
	const credentials = new Credentials(details, type);
	const cipher = (credentials as unknown as { cipher?: InstanceKeyCipher }).cipher;
	const encrypt = cipher?.encryptWithInstanceKey?.bind(cipher);
	const decrypt = cipher?.decryptWithInstanceKey?.bind(cipher);
	if (!encrypt || !decrypt) return credentials; // n8n-core 2.8: already synchronous
	const entry = credentials as unknown as { data?: string };
	Object.assign(credentials, {
		setData(data: ICredentialDataDecryptedObject): void {
			entry.data = encrypt(data);
		},
		getData(): ICredentialDataDecryptedObject {
			if (entry.data === undefined) throw new Error(`Credential "${details.name}" has no data`);
			return jsonParse<ICredentialDataDecryptedObject>(decrypt(entry.data));
		},
	});
	return credentials;
}
