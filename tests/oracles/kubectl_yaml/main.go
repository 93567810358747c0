// Command kubectl_yaml prints, for each document of the YAML stream on stdin,
// the JSON that sigs.k8s.io/yaml (the YAML library kubectl decodes manifests
// with) makes of it: one line per document, or "error: ..." when it refuses it.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

func main() {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(os.Stdin))
	for {
		document, err := reader.Read()
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if len(bytes.TrimSpace(document)) == 0 {
			continue
		}
		converted, err := yaml.YAMLToJSON(document)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println(string(converted))
	}
}
