# A regula-style fugue library written for the tests: it reads input.resources
# keyed by resource, and marks its judgements so a test can tell it was used.
package fugue

resources(rt) = ret {
  ret = {k: r | r = input.resources[k]; r._type == rt}
}

# The message names the id the library saw, so a test can check it.
allow_resource(resource) = ret {
  ret := {"valid": true, "id": resource.id, "type": resource._type, "message": concat(" ", ["own fugue:", resource.id])}
}

deny_resource(resource) = ret {
  ret := {"valid": false, "id": resource.id, "type": resource._type, "message": concat(" ", ["own fugue:", resource.id])}
}
