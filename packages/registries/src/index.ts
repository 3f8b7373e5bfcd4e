export * from './adapters/crates.ts';
export * from './adapters/elm.ts';
export * from './adapters/github.ts';
export * from './adapters/goproxy.ts';
export * from './adapters/hex.ts';
export * from './adapters/maven.ts';
export * from './adapters/npm.ts';
export * from './adapters/nuget.ts';
export * from './adapters/oci.ts';
export * from './adapters/packagist.ts';
export * from './adapters/pypi.ts';
export * from './adapters/rubygems.ts';
export * from './adapters/terraform.ts';
export {
  createRegistryHttp,
  type RegistryAdapterOptions,
  type RegistryAnswer,
  type RegistryHttp,
  type RegistryHttpOptions,
} from './http/registry-http.ts';
export * from './port.ts';
export * from './registry-for.ts';
