package diff.encoding.yaml

manifest := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: "frontend"}
  annotations:
    enabled: yes
    created: 2024-03-01
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: app
          image: nginx:1.25
          ports: [80, 0x1BB]
          env:
            - {name: DEBUG, value: "false"}
            - {name: RATIO, value: 0.5}
`

defaults := `base: &base
  cpu: 100m
  memory: 128Mi
small:
  <<: *base
  memory: 64Mi
`

doc := yaml.unmarshal(manifest)

replicas := doc.spec.replicas

container_images := [c.image | some c in doc.spec.template.spec.containers]

ports := doc.spec.template.spec.containers[0].ports

# YAML 1.2 core schema: "yes" stays a string, dates stay strings.
annotations := doc.metadata.annotations

env_values := {e.name: e.value | some e in doc.spec.template.spec.containers[0].env}

merged := yaml.unmarshal(defaults).small

first_document_only := yaml.unmarshal("a: 1\n---\nb: 2\n")

multi_doc_bad_tail := yaml.unmarshal("a: 1\n---\nb: [\n")

invalid_checks := {s: yaml.is_valid(s) | some s in ["a: 1", "a: [", "\ta: 1", "a: b: c", "- x\n- y"]}

every_manifest_valid if {
	every s in [manifest, defaults] {
		yaml.is_valid(s)
	}
}

rendered := yaml.marshal(doc)

round_trip_equal := yaml.unmarshal(yaml.marshal(doc)) == doc

marshal_tricky := yaml.marshal({
	"on": "yes",
	"version": "1.10",
	"empty": "",
	"script": "set -e\necho hi\n",
	"comment": "a # b",
	"colon": "key: value",
	"list": [[], {}, [1, [2]]],
	"nothing": null,
	"flag": false,
})

marshal_set := yaml.marshal({"names": {"b", "a", "c"}})

marshal_key_order := yaml.marshal({"item10": 1, "item2": 2, "Item1": 3, "a": 4})

unmarshal_error := yaml.unmarshal("key: [unclosed")

unmarshal_nan_error := yaml.unmarshal("x: .nan")

scalar_docs := [yaml.unmarshal(s) | some s in ["42", "3.0", "true", "~", "hello", "0o17", "1_000"]]
