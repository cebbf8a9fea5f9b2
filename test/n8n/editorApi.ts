// What the checks ask a running n8n beyond signing in: publishing a workflow and saving a credential
// as the editor does, and reading executions with their run data.
import { createRequire } from 'module';
import path from 'path';
import type { IDataObject, IRunData, IRunExecutionData } from 'n8n-workflow';
import { sleep } from '../../scripts/n8n/proc';
import { N8nRest } from '../../scripts/n8n/rest';

/** An entry of the executions list. */
export interface ExecutionSummary {
	id: string;
	status: string;
	mode?: string;
	workflowId?: string;
}

/** One execution with its run data parsed. */
export interface Execution extends ExecutionSummary {
	data: IRunExecutionData;
}

/** n8n 2.x: `GET /rest/workflows/:id/publication-status`. */
interface PublicationStatus {
	status: 'in_progress' | 'not_published' | 'published' | 'partial' | 'failed';
	triggers: Array<{ nodeId: string; status: string; errorMessage: string | null }>;
}

export class EditorApi extends N8nRest {
	/** `appDir`: the n8n install whose `flatted` parses execution data. */
	constructor(
		baseUrl: string,
		private readonly appDir: string,
	) {
		super(baseUrl);
	}

	/**
	 * Publishes (activates) a workflow as the editor does, and says whether n8n activated it or why
	 * not. 1.x: `PATCH /workflows/:id` with `active: true`; 2.x: `POST /workflows/:id/activate`.
	 * Up to 2.8 both activate at once and answer 400 with the activation error. Newer 2.x queue the
	 * publication: the editor then polls `GET /workflows/:id/publication-status` until it is no
	 * longer in progress, and shows the failed trigger's `errorMessage`.
	 */
	async publish(
		workflowId: string,
		n8nMajor: number,
	): Promise<{ published: true } | { published: false; message: string }> {
		const { versionId } = await this.expectOk<{ versionId: string }>(
			'GET',
			`/workflows/${workflowId}`,
		);
		const [method, route, body] =
			n8nMajor < 2
				? ['PATCH', `/workflows/${workflowId}`, { active: true, versionId }]
				: ['POST', `/workflows/${workflowId}/activate`, { versionId }];
		const res = await this.request(method, route, body);
		const message = (res.json as { message?: string } | undefined)?.message;
		if (res.status === 400 && message) return { published: false, message };
		this.dataOf(method, route, res);
		return n8nMajor < 2 ? { published: true } : this.publicationOutcome(workflowId);
	}

	/** What the publication of a workflow came to; activated already when n8n has no such status. */
	private async publicationOutcome(
		workflowId: string,
	): Promise<{ published: true } | { published: false; message: string }> {
		const route = `/workflows/${workflowId}/publication-status`;
		const deadline = Date.now() + 60000;
		for (;;) {
			const res = await this.request('GET', route);
			if (res.status === 404) return { published: true }; // 2.8: activated synchronously
			const publication = this.dataOf<PublicationStatus>('GET', route, res);
			if (!publication.status)
				throw new Error(`GET /rest${route} answered without a status: ${res.text.slice(0, 300)}`);
			if (publication.status === 'published') return { published: true };
			if (publication.status === 'failed' || publication.status === 'partial') {
				const messages = publication.triggers
					.filter((t) => t.status === 'failed')
					.map((t) => t.errorMessage ?? '');
				return { published: false, message: messages.join('\n') };
			}
			if (Date.now() > deadline)
				throw new Error(
					`the publication of ${workflowId} was still ${publication.status} after 60 s`,
				);
			await sleep(250);
		}
	}

	/** Replaces a credential's data, as saving the credential form does. */
	async updateCredential(
		credential: { id: string; name: string; type: string },
		data: IDataObject,
	): Promise<void> {
		await this.expectOk('PATCH', `/credentials/${credential.id}`, {
			name: credential.name,
			type: credential.type,
			data,
		});
	}

	/** Newest first: [{ id, status, mode, workflowId, ... }]. */
	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const data = await this.expectOk<{ results: ExecutionSummary[] }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		return data.results;
	}

	/** Stops an execution, as the editor's Stop button does (a waiting one ends as canceled). */
	async stopExecution(id: string): Promise<void> {
		await this.expectOk('POST', `/executions/${id}/stop`, {});
	}

	/** One execution with its run data parsed (n8n stores it in the `flatted` format). */
	async execution(id: string): Promise<Execution> {
		const data = await this.expectOk<ExecutionSummary & { data: string | IRunExecutionData }>(
			'GET',
			`/executions/${id}`,
		);
		// Required, not imported: Playwright's test runner resolves a dynamic import as an ES module,
		// which cannot import a folder.
		const flatted = createRequire(path.join(this.appDir, 'package.json'))('flatted');
		const parse = (flatted as { parse: (text: string) => IRunExecutionData }).parse;
		return { ...data, data: typeof data.data === 'string' ? parse(data.data) : data.data };
	}
}

/** The JSON of every item a node output on its first run: [[...output 0], [...output 1]]. */
export function nodeOutputs<T = IDataObject>(
	runData: IRunData | undefined,
	nodeName: string,
): T[][] {
	const run = runData?.[nodeName]?.[0];
	const main = run?.data?.main ?? [];
	return main.map((items) => (items ?? []).map((item) => item.json as T));
}
