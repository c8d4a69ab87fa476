package ssa

func verify(p *Program) ErrorList { return nil }
