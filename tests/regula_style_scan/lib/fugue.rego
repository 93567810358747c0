# A regula-style fugue library written for the tests: it reads input.resources
# keyed by resource, and marks its judgements so a test can tell it was used.
package fugue

resources(rt) = ret {
  ret = {k: r | r = input.resources[k]; r._type == rt}
}

allow_resource(resource) = ret {
  ret := {"valid": true, "id": resource.id, "type": resource._type, "message": "own fugue"}
}

deny_resource(resource) = ret {
  ret := {"valid": false, "id": resource.id, "type": resource._type, "message": "own fugue"}
}
