module github.com/ptx2go/ptx2go

go 1.26
