// Type-level tests of the typed helpers (typechecked by vitest, never run): inputs and outputs are
// inferred from each resource's and lookup's zod schemas; a misspelt field, a value of the wrong type,
// or out() of a name the resource does not have fails to compile.
import { describe, expectTypeOf, it } from 'vitest';
import {
  Engine,
  MemoryStateStore,
  ref,
  stackRef,
  type LookupCall,
  type Ref,
  type StackRef,
  type TypedDecl,
  type TypedRef,
  type Secret,
} from 'converge';
import { prova } from 'converge/providers/a';
import { provb } from 'converge/providers/b';
import { provc } from 'converge/providers/c';

type IsAny<T> = 0 extends 1 & T ? true : false;
type IsUnknown<T> = unknown extends T ? (IsAny<T> extends true ? false : true) : false;
/** The names of helpers whose inputs, outputs, arguments or results are `any` or `unknown`. */
type Untyped<H> = {
  [K in keyof H]: H[K] extends (name: string, ...rest: never[]) => TypedDecl<infer I, infer O>
    ? IsAny<I> | IsAny<O> | IsUnknown<I> | IsUnknown<O> extends false
      ? never
      : K
    : H[K] extends (args: infer A) => LookupCall<infer _S, infer R>
      ? IsAny<A> | IsAny<R> | IsUnknown<R> extends false
        ? never
        : K
      : K;
}[keyof H];

describe('every helper of every provider', () => {
  it('has inputs, outputs, lookup arguments and lookup results inferred from its schemas', () => {
    expectTypeOf<Untyped<typeof prova>>().toBeNever();
    expectTypeOf<Untyped<typeof provb>>().toBeNever();
    expectTypeOf<Untyped<typeof provc>>().toBeNever();
  });
});

describe('resource helpers', () => {
  it('infer required and optional inputs with their types', () => {
    type WebInputs = Parameters<typeof provb.instance>[1];
    expectTypeOf<WebInputs['diskImage']>().toEqualTypeOf<
      string | TypedRef<string> | StackRef<string> | Secret<string | TypedRef<string> | StackRef<string>>
    >();
    expectTypeOf<WebInputs>().toHaveProperty('size');
    expectTypeOf<Parameters<typeof prova.instance>[1]['type']>().toEqualTypeOf<
      | 'container'
      | 'virtual-machine'
      | undefined
      | TypedRef<'container' | 'virtual-machine' | undefined>
      | StackRef<'container' | 'virtual-machine' | undefined>
      | Secret<
          | 'container'
          | 'virtual-machine'
          | undefined
          | TypedRef<'container' | 'virtual-machine' | undefined>
          | StackRef<'container' | 'virtual-machine' | undefined>
        >
    >();
    expectTypeOf<Parameters<typeof provc.cdnResource>[1]['originGroup']>().toEqualTypeOf<
      | number
      | undefined
      | TypedRef<number | undefined>
      | StackRef<number | undefined>
      | Secret<number | undefined | TypedRef<number | undefined> | StackRef<number | undefined>>
    >();
    // Another stack's output of the field's type fits it; one of another type does not.
    const network = new MemoryStateStore();
    provb.instance('app', { hostname: 'app', diskImage: stackRef<string>(network, 'image'), firewallId: 'fw' });
    // @ts-expect-error a number output does not fit a string field
    provb.instance('app', { hostname: 'app', diskImage: stackRef<number>(network, 'image'), firewallId: 'fw' });
  });

  it('accept a correct declaration with references between providers', () => {
    const app = prova.instance('app', { name: 'app', image: 'busybox' });
    const zone = provb.dnsDomainName('zone', { name: 'example.com' });
    const rec = provb.dnsDomainRecord('rec', {
      domainId: zone.out('dnsDomainNameId'),
      type: 'a',
      name: 'app',
      value: app.out('ipv4Address'),
    });
    const origins = provc.cdnOriginGroup('o', { name: 'o', sources: [{ source: rec.out('value') }] });
    const cdn = provc.cdnResource('cdn', { cname: 'cdn.example.com', originGroup: origins.out('originGroupId') });
    expectTypeOf(cdn.type).toBeString();
    expectTypeOf(app.out('ipv4Address')).toEqualTypeOf<TypedRef<string>>();
    expectTypeOf(origins.out('originGroupId')).toEqualTypeOf<TypedRef<number>>();
    expectTypeOf(app.out('id')).toEqualTypeOf<TypedRef<string>>();
  });

  it('reject a misspelt field name', () => {
    // @ts-expect-error: 'imagee' is not an input of prova.instance
    prova.instance('app', { name: 'app', imagee: 'busybox' });
    // @ts-expect-error: 'hostnam' is not an input of provb.instance
    provb.instance('web', { diskImage: 'ubuntu-jammy', firewallId: 'fw', hostnam: 'web' });
    // @ts-expect-error: 'cnam' is not an input of provc.cdnResource
    provc.cdnResource('cdn', { cnam: 'cdn.example.com' });
  });

  it('reject a missing required field', () => {
    // @ts-expect-error: diskImage is required
    provb.instance('web', { firewallId: 'fw' });
    // @ts-expect-error: sources is required
    provc.cdnOriginGroup('o', { name: 'o' });
  });

  it('reject a value of the wrong type, at any depth', () => {
    // @ts-expect-error: sizeGb is a number
    provb.volume('v', { name: 'data', sizeGb: 'ten' });
    // @ts-expect-error: type is 'container' or 'virtual-machine'
    prova.instance('app', { name: 'app', image: 'busybox', type: 'vm' });
    // @ts-expect-error: config values are strings
    prova.instance('app', { name: 'app', image: 'busybox', config: { 'limits.cpu': 2 } });
    // @ts-expect-error: a rule's cidrs are a list of strings
    provb.firewall('fw', { name: 'fw', ingressRules: [{ cidrs: '0.0.0.0/0', action: 'allow' }] });
  });

  it('reject a reference to an output of the wrong type', () => {
    const origins = provc.cdnOriginGroup('o', { name: 'o', sources: [{ source: 'origin.example.com' }] });
    // @ts-expect-error: originGroup is a number; the group's name is a string
    provc.cdnResource('cdn', { cname: 'cdn.example.com', originGroup: origins.out('name') });
  });

  it('let out() name only real outputs (and inputs, and id)', () => {
    const fw = provb.firewall('fw', { name: 'fw' });
    fw.out('firewallId');
    fw.out('name');
    fw.out('id');
    // @ts-expect-error: a firewall has no output 'firewallID'
    fw.out('firewallID');
    const app = prova.instance('app', { name: 'app', image: 'busybox' });
    // @ts-expect-error: an instance has no output 'ipv4'
    app.out('ipv4');
  });

  it('accept an untyped ref() anywhere, for paths out() cannot name', () => {
    const rec = provb.dnsDomainRecord('rec', {
      domainId: ref('zone', 'id'),
      type: 'a',
      name: 'app',
      value: ref('app', 'interfaces.eth0.ipv4Address'),
    });
    expectTypeOf(rec.inputs.value).toMatchTypeOf<string | Ref | StackRef | Secret<string | Ref | StackRef>>();
  });
});

describe('lookup helpers', () => {
  it('type the arguments and the result engine.lookup() resolves to', () => {
    const engine = new Engine({ providers: [] });
    const call = provc.getCloudInferenceFlavors({ maxItems: 5 });
    expectTypeOf(engine.lookup(call)).resolves.toHaveProperty('items');
    expectTypeOf(engine.lookup(provb.getInstance({ hostname: 'web1' }))).resolves.not.toBeAny();
    expectTypeOf(engine.lookup(prova.getNetwork({ name: 'convergebr0' }))).resolves.toHaveProperty('config');
  });

  it('reject wrong arguments', () => {
    // @ts-expect-error: 'nam' is not an argument of getNetwork
    prova.getNetwork({ nam: 'convergebr0' });
    // @ts-expect-error: maxItems is a number
    provc.getCloudInferenceFlavors({ maxItems: 'five' });
  });
});
