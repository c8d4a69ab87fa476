module github.com/ptx2go/ptx2go

go 1.26.0

require (
	github.com/dave/jennifer v1.7.1
	github.com/sbinet/npyio v0.6.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/tools v0.52.0
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	gonum.org/v1/gonum v0.9.3 // indirect
)
