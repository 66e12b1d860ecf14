package settings

import (
	"context"
	"encoding/json"
)

// StorageWeightsKey is repository_storages_weighted: storage name → weight of new repositories.
const StorageWeightsKey = "repository_storages_weighted"

// StorageWeights returns the weights new repositories are placed by. Until an administrator
// sets them, GitLab's default gives the "default" storage everything; an instance configured
// without a storage of that name spreads new repositories evenly over its storages instead.
func (s *Service) StorageWeights(ctx context.Context) (map[string]int, error) {
	snap, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	if raw, ok := snap[StorageWeightsKey]; ok {
		w := map[string]int{}
		return w, json.Unmarshal([]byte(raw), &w)
	}
	if len(s.storages) == 0 || contains(s.storages, "default") {
		return map[string]int{"default": 100}, nil
	}
	w := make(map[string]int, len(s.storages))
	for _, name := range s.storages {
		w[name] = 100
	}
	return w, nil
}
