/**
 * "Map Input Columns Automatically": instead of mapping every field with an expression, each
 * input item's columns are read as the fields of the same name. The stored values keep n8n's
 * resourceMapper names (`defineBelow`, `autoMapInputData`); manual mapping stays the default.
 */
import type { INodeProperties } from 'n8n-workflow';

export const MAPPING_MODE = 'mappingMode';
export const AUTO_MAP = 'autoMapInputData';

type Show = Record<string, string[]>;

/** A field only shown, and only read, with manual mapping. */
export function manualOnly(property: INodeProperties): INodeProperties {
	const displayOptions = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...displayOptions, hide: { ...displayOptions.hide, [MAPPING_MODE]: [AUTO_MAP] } },
	};
}

export function mappingModeProperty(show: Show, noun: string): INodeProperties {
	return {
		displayName: 'Input Mapping',
		name: MAPPING_MODE,
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Map Each Field Manually',
				value: 'defineBelow',
				description: 'Fill in or map every field of the form below',
			},
			{
				name: 'Map Input Columns Automatically',
				value: AUTO_MAP,
				description: `Each input item is one ${noun}: its columns are read as the fields of the same name, with no expression per field`,
			},
		],
		default: 'defineBelow',
		displayOptions: { show },
	};
}

/** What the automatic mode reads, in the editor: the column names, and how they are matched. */
export function columnsNotice(show: Show, columns: string, nameSuffix = ''): INodeProperties {
	return {
		displayName: `Each input item's columns are read as: ${columns}. Names are matched ignoring case, spaces, "-" and "_" (reference_no, referenceNo and "Reference No" are the same column); other columns are ignored. Every row is checked exactly as with manual mapping.`,
		name: `columnsNotice${nameSuffix}`,
		type: 'notice',
		default: '',
		displayOptions: { show: { ...show, [MAPPING_MODE]: [AUTO_MAP] } },
	};
}
