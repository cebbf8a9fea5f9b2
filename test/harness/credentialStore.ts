/**
 * An in-memory stand-in for n8n's credentials table. Data is kept encrypted with n8n-core's own
 * `Credentials` class (key from N8N_ENCRYPTION_KEY), as n8n stores it, so every read goes through
 * the same decrypt and every token write through the same encrypt.
 */
import './bootstrap';

import type { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INodeCredentials,
	INodeCredentialsDetails,
} from 'n8n-workflow';

import { newCredentials } from './credentialData';
import { expirablePropertyOf, getCredentialType } from './credentialTypes';

export type SecretKind = 'password' | 'signing secret' | 'session token' | 'secret field';

export interface KnownSecret {
	kind: SecretKind;
	credentialType: string;
	value: string;
}

export interface CredentialStats {
	/** Times a credential type's own preAuthentication ran (the server decided a token was needed). */
	preAuthentications: number;
	/** Writes of credential data (each preAuthentication that returned a token writes once). */
	updates: number;
}

export class CredentialNotFoundError extends Error {
	constructor(id: string | null, type: string) {
		// The wording of n8n's server for the same situation.
		super(`Credential with ID "${id}" does not exist for type "${type}".`);
	}
}

export class CredentialStore {
	private readonly entries = new Map<string, Credentials>();
	private readonly counters = new Map<string, CredentialStats>();
	private readonly known = new Map<string, KnownSecret>();
	private nextId = 1;

	/**
	 * Saves a credential, as a user does in the editor. Returns what a workflow node references:
	 * `{ id, name }`. Fields left out get the credential type's defaults when read.
	 */
	add(
		type: string,
		data: ICredentialDataDecryptedObject,
		options: { id?: string; name?: string } = {},
	): INodeCredentialsDetails & { id: string } {
		getCredentialType(type);
		const id = options.id ?? `cred-${this.nextId++}`;
		const name = options.name ?? `${type} ${id}`;
		const credentials = newCredentials({ id, name }, type);
		credentials.setData(data);
		this.entries.set(key(type, id), credentials);
		this.remember(type, data);
		return { id, name };
	}

	/** The first credential of a type, as a node would reference it. */
	firstOf(type: string): (INodeCredentialsDetails & { id: string }) | undefined {
		for (const credentials of this.entries.values()) {
			if (credentials.type === type)
				return { id: credentials.id as string, name: credentials.name };
		}
		return undefined;
	}

	/**
	 * References for the credentials a node type declares: the first stored one of each type,
	 * as a user picking the only credential of a kind would. Undefined when none match.
	 */
	credentialsFor(declared: Array<{ name: string }> | undefined): INodeCredentials | undefined {
		const credentials: INodeCredentials = {};
		for (const { name } of declared ?? []) {
			const first = this.firstOf(name);
			if (first) credentials[name] = first;
		}
		return Object.keys(credentials).length ? credentials : undefined;
	}

	/** The stored entry, as n8n's CredentialsHelper.getCredentials returns it. */
	get(type: string, id: string | null | undefined): Credentials {
		const credentials = id ? this.entries.get(key(type, id)) : undefined;
		if (!credentials) throw new CredentialNotFoundError(id ?? null, type);
		return credentials;
	}

	/** The stored data, decrypted, without defaults (what the database holds). */
	data(type: string, id?: string): ICredentialDataDecryptedObject {
		const ref = id ?? this.firstOf(type)?.id;
		return this.get(type, ref).getData();
	}

	/** Overwrites a credential's data, as n8n's server does after preAuthentication. */
	update(type: string, id: string | null | undefined, data: ICredentialDataDecryptedObject): void {
		const credentials = this.get(type, id);
		credentials.setData(data);
		this.stats(type).updates++;
		this.remember(type, data);
	}

	recordPreAuthentication(type: string): void {
		this.stats(type).preAuthentications++;
	}

	/** Counters of one credential type (live object), or the sum over all types. */
	stats(type?: string): CredentialStats {
		if (type === undefined) {
			const total = { preAuthentications: 0, updates: 0 };
			for (const counter of this.counters.values()) {
				total.preAuthentications += counter.preAuthentications;
				total.updates += counter.updates;
			}
			return total;
		}
		let counter = this.counters.get(type);
		if (!counter) {
			counter = { preAuthentications: 0, updates: 0 };
			this.counters.set(type, counter);
		}
		return counter;
	}

	resetStats(): void {
		this.counters.clear();
	}

	/**
	 * Blanks the stored token of every credential of `type`, so the next request runs
	 * preAuthentication again (what n8n does when the expirable field is empty). Not counted as
	 * an update: it simulates state, it is not something n8n did.
	 */
	expireStoredToken(type: string): void {
		const property = expirablePropertyOf(type);
		if (!property) throw new Error(`Credential type "${type}" has no expirable field`);
		for (const credentials of this.entries.values()) {
			if (credentials.type !== type) continue;
			credentials.setData({ ...credentials.getData(), [property.name]: '' });
		}
	}

	/** Every secret value this store has held: passwords, signing secrets, every token stored. */
	secrets(): KnownSecret[] {
		return [...this.known.values()];
	}

	private remember(type: string, data: ICredentialDataDecryptedObject): void {
		const expirable = expirablePropertyOf(type)?.name;
		for (const property of getCredentialType(type).properties) {
			const value = data[property.name];
			if (typeof value !== 'string' || value === '') continue;
			const kind = secretKind(property.name, expirable, property.typeOptions?.password === true);
			if (kind) this.known.set(`${kind}\u0000${value}`, { kind, credentialType: type, value });
		}
	}
}

function key(type: string, id: string): string {
	return `${type}\u0000${id}`;
}

function secretKind(
	name: string,
	expirable: string | undefined,
	isPassword: boolean,
): SecretKind | undefined {
	if (name === expirable) return 'session token';
	if (name === 'password') return 'password';
	if (name === 'signingSecret') return 'signing secret';
	return isPassword ? 'secret field' : undefined;
}
