/**
 * Which `mpeTrace.sourcePathMappings` value counts (issue 14 §14). A repository's
 * `.vscode/settings.json` can map recorded paths to `../../../../etc`; in an untrusted workspace
 * only the user's own (global) value is used — workspace and folder values are ignored — as the
 * setting is also listed in `restrictedConfigurations`. Trusted workspaces use the merged value.
 */
export interface SettingInspection<T> {
  readonly globalValue?: T;
  readonly workspaceValue?: T;
  readonly workspaceFolderValue?: T;
}

export function effectiveMappingsValue(inspected: SettingInspection<unknown> | undefined, merged: unknown, trusted: boolean): unknown {
  if (trusted) return merged;
  return inspected?.globalValue;
}

/** True when the workspace (or a folder) sets the value that an untrusted workspace ignores. */
export function ignoredWorkspaceMappings(inspected: SettingInspection<unknown> | undefined, trusted: boolean): boolean {
  return !trusted && (inspected?.workspaceValue !== undefined || inspected?.workspaceFolderValue !== undefined);
}
