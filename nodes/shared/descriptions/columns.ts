/**
 * How the form names the columns of a row: the Input Mapping parameter's values, and the column a
 * node parameter stands for. The runner reads rows by these names (runner/itemValues.ts).
 */

/** The Input Mapping parameter (properties.ts) and its automatic value. */
export const MAPPING_MODE = 'mappingMode';
export const AUTO_MAP = 'autoMapInputData';

/** A field an automatically mapped row supplies, named as the node parameter it stands for. */
export interface ColumnField {
	/** The node parameter (camelCase); its snake_case is the column name the editor shows. */
	param: string;
	label: string;
	/** A row without this column is an error. */
	required?: boolean;
	/** Without this column, or with its cell empty, the node's own field is used (one value for the run). */
	orNodeField?: boolean;
}

/** How the editor and errors name a column: the service's snake_case. */
export function columnName(param: string): string {
	return param.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
