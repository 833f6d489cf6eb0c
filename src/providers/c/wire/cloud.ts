// The Gcore Cloud API's objects as provider C sends and reads them, after the Cloud OpenAPI spec
// (/work/shared/specs/gcore/cloud_api.yaml: CreateFloatingIPSerializer, PatchFloatingIPSerializer,
// FloatingIPSerializer). The read-only lookups (bare metal, GPU clusters, inference flavors) pass
// their answers through whole (camel-cased), so only what a resource writes is typed here.

/** Where a Cloud object lives: the project and region every Cloud path names ({project_id}/{region_id}). */
export type Scope = { readonly projectId: number; readonly regionId: number };

/** A tag of a Cloud object as the API answers it; `read_only` tags are the vendor's. */
export type CloudTag = { readonly key: string; readonly value: string; readonly read_only?: boolean };

/** POST /cloud/v1/floatingips/{project_id}/{region_id} (a task). */
export type FloatingIpCreate = {
  readonly fixed_ip_address?: string | null;
  readonly port_id?: string | null;
  readonly tags?: Readonly<Record<string, string>>;
};

/**
 * PATCH /cloud/v2/floatingips/{project_id}/{region_id}/{floating_ip_id} (a task): the port
 * assignment, and tag changes (a null value removes the tag). Built field by field, so not readonly.
 */
export type FloatingIpUpdate = {
  fixed_ip_address?: string | null;
  port_id?: string | null;
  tags?: Readonly<Record<string, string | null>> | null;
};

/** GET /cloud/v1/floatingips/{project_id}/{region_id}/{floating_ip_id}. */
export type FloatingIp = {
  readonly id: string;
  readonly created_at: string;
  readonly updated_at?: string;
  readonly creator_task_id?: string | null;
  readonly task_id?: string | null;
  readonly fixed_ip_address?: string | null;
  readonly floating_ip_address?: string | null;
  readonly port_id?: string | null;
  readonly router_id?: string | null;
  readonly status?: string | null;
  readonly project_id: number;
  readonly region: string;
  readonly region_id: number;
  readonly tags?: CloudTag[];
};
