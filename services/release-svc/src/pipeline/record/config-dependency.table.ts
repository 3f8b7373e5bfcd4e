/** `release.config_dependency`: the dependencies a config's last run found (what the registry watch polls for `live` configs). */
export interface ConfigDependencyTable {
  update_config_id: number;
  name: string;
}

declare module '../../db/schema.ts' {
  interface ReleaseDatabase {
    config_dependency: ConfigDependencyTable;
  }
}
