// The Gcore CDN API's objects as provider C sends and reads them, after the CDN OpenAPI spec
// (/work/shared/specs/gcore/cdn_api.yaml: OriginGroups, CdnResource, Rule, RuleTemplate, SslData,
// CaCertificate). A request type holds the fields converge sends; an answer type the fields the
// spec lists (optional where the spec does not require them, `| null` where it says nullable). The
// client's endpoints take and answer these types; the simulator's request check holds requests to
// the same spec (simulator/request-schemas.ts).

/** CDN `options` keep the vendor's option names: `{ gzipOn: { enabled, value } }`. */
export type CdnOptions = Record<string, unknown>;

/** One origin of an origin group (`sources[]`). */
export type CdnOriginSource = {
  readonly source: string;
  readonly backup?: boolean;
  readonly enabled?: boolean;
  readonly host_header_override?: string | null;
  readonly origin_type?: string;
};

/** POST and PUT /cdn/origin_groups(/{id}): a group of host origins. */
export type CdnOriginGroupRequest = {
  readonly name: string;
  readonly sources: readonly CdnOriginSource[];
  readonly use_next?: boolean;
  readonly proxy_next_upstream?: readonly string[];
};

/** GET /cdn/origin_groups/{origin_group_id}. */
export type CdnOriginGroup = {
  readonly id: number;
  readonly name: string;
  readonly use_next?: boolean;
  readonly proxy_next_upstream?: string[];
  readonly auth_type?: string;
  readonly sources?: CdnOriginSource[];
  readonly path?: string | null;
  readonly has_related_resources?: boolean;
  readonly auth?: Record<string, unknown> | null;
};

/** The settings of a CDN resource that POST and PUT /cdn/resources(/{id}) both take. */
export type CdnResourceSettings = {
  readonly originGroup?: number;
  readonly originProtocol?: string;
  readonly name?: string | null;
  readonly description?: string;
  readonly active?: boolean;
  readonly secondaryHostnames?: readonly string[];
  readonly sslEnabled?: boolean;
  readonly sslData?: number | null;
  readonly proxy_ssl_enabled?: boolean;
  readonly proxy_ssl_ca?: number | null;
  readonly proxy_ssl_data?: number | null;
  readonly options?: CdnOptions;
};

/** POST /cdn/resources: the settings with the delivery domain and one origin host or a group. */
export type CdnResourceRequest = CdnResourceSettings & { readonly cname: string; readonly origin?: string };

/** GET /cdn/resources/{resource_id}. */
export type CdnResource = {
  readonly id: number;
  readonly cname: string;
  readonly active: boolean;
  readonly enabled?: boolean;
  readonly status?: string;
  readonly deleted?: boolean;
  readonly client?: number;
  readonly name?: string | null;
  readonly description?: string;
  readonly created?: string;
  readonly updated?: string;
  readonly originGroup?: number;
  readonly originGroup_name?: string;
  readonly originProtocol?: string;
  readonly secondaryHostnames?: string[];
  readonly shielded?: boolean;
  readonly shield_dc?: string | null;
  readonly shield_enabled?: boolean;
  readonly shield_routing_map?: number | null;
  readonly sslEnabled?: boolean;
  readonly sslData?: number | null;
  readonly proxy_ssl_enabled?: boolean;
  readonly proxy_ssl_ca?: number | null;
  readonly proxy_ssl_data?: number | null;
  readonly preset_applied?: boolean;
  readonly vp_enabled?: boolean;
  readonly full_custom_enabled?: boolean;
  readonly can_purge_by_urls?: boolean;
  readonly suspend_date?: string | null;
  readonly suspended?: boolean;
  readonly primary_resource?: number | null;
  readonly is_primary?: boolean | null;
  readonly waap_domain_id?: string | null;
  readonly rules?: unknown[];
  readonly options?: CdnOptions;
};

/** POST and PUT of a rule (/cdn/resources/{resource_id}/rules) and of a rule template. */
export type CdnRuleRequest = {
  readonly name?: string;
  readonly rule: string;
  readonly ruleType: number;
  readonly active?: boolean;
  readonly weight?: number;
  readonly overrideOriginProtocol?: string | null;
  readonly originGroup?: number | null;
  readonly options?: CdnOptions;
};

/** GET /cdn/resources/{resource_id}/rules/{rule_id}. */
export type CdnRule = {
  readonly id: number;
  readonly name: string;
  readonly active?: boolean;
  readonly deleted?: boolean;
  readonly originGroup?: number | null;
  readonly rule: string;
  readonly ruleType: number;
  readonly weight?: number;
  readonly originProtocol?: string;
  readonly overrideOriginProtocol?: string | null;
  readonly preset_applied?: boolean;
  readonly primary_rule?: number | null;
  readonly options?: CdnOptions;
};

/** GET /cdn/resources/rule_templates/{rule_template_id}. */
export type CdnRuleTemplate = {
  readonly id: number;
  readonly name?: string;
  readonly client?: number;
  readonly deleted?: boolean;
  readonly rule: string;
  readonly ruleType: number;
  readonly weight?: number;
  readonly template?: boolean;
  readonly default?: boolean;
  readonly overrideOriginProtocol?: string | null;
  readonly options?: CdnOptions;
};

/** POST /cdn/sslData: an uploaded certificate (certificate and key) or a Let's Encrypt one (automated). */
export type CdnCertificateRequest = {
  readonly name: string;
  readonly sslCertificate?: string;
  readonly sslPrivateKey?: string;
  readonly validate_root_ca?: boolean;
  readonly automated?: boolean;
};

/** The fields of every CDN certificate answer (client certificates and trusted CAs alike). */
export type CdnCertificateFields = {
  readonly id: number;
  readonly name: string;
  readonly deleted?: boolean;
  readonly cert_issuer?: string;
  readonly cert_subject_cn?: string;
  readonly cert_subject_alt?: string;
  readonly validity_not_before?: string;
  readonly validity_not_after?: string;
  readonly sslCertificateChain?: string;
  readonly hasRelatedResources?: boolean;
};

/** GET /cdn/sslData/{ssl_id}. */
export type CdnCertificate = CdnCertificateFields & { readonly automated?: boolean };

/** POST /cdn/sslCertificates: a CA certificate origins are verified with. */
export type CdnCaCertificateRequest = { readonly name: string; readonly sslCertificate?: string };

/** GET /cdn/sslCertificates/{id}. */
export type CdnCaCertificate = CdnCertificateFields;
