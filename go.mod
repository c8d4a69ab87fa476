module github.com/ptx2go/ptx2go

go 1.26

require (
	github.com/sbinet/npyio v0.6.0
	github.com/stretchr/testify v1.12.1
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	gonum.org/v1/gonum v0.9.3 // indirect
)
