export declare const UPDATE_HINT: string;
export type ExportKind = 'class' | 'function' | 'object' | 'constant' | 'type';
export interface ApiReport {
  package: string;
  exports: Record<string, ExportKind>;
}
export declare function exportKind(value: unknown): ExportKind;
export declare function declaredExportNames(declarations: string): Set<string>;
export declare function describeExports(
  namespace: Record<string, unknown>,
  typeNames?: Iterable<string>,
): Record<string, ExportKind>;
export declare function entryOf(
  packageRoot: string,
): Promise<{ name: string; file: string; types: string | undefined }>;
export declare function apiReport(
  location: string | URL,
  env?: Record<string, string | undefined>,
): Promise<{ actual: ApiReport; expected: ApiReport; reportPath: string; message: string }>;
